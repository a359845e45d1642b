// Calling an engine's REST API from a test, and the shape every failure has:
// shared by the API, parameter and security suites.
import { expect } from 'vitest';
import type { Lantern } from '../../src/lantern.js';

export interface Response<T = any> { status: number; body: T }

/** A call to the engine; `headers` replace the sender's own when given. */
export type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>;

/** Calls `engine` with `ownHeaders` (the credentials of a suite's admin). */
export function sender(engine: Lantern, ownHeaders: Record<string, string>): Send {
  return async (method, path, body, headers = ownHeaders) => {
    const response = await engine.request({ method, path, headers, body });
    return { status: response.status, body: response.body as any };
  };
}

/** The error every failure answers: `status`, and JSON `{message, status}` with a message (matching `message`). */
export function expectError(response: Response, status: number, message?: RegExp): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toEqual({ message: expect.any(String), status });
  expect(response.body.message.length).toBeGreaterThan(0);
  expect(JSON.parse(JSON.stringify(response.body))).toEqual(response.body);
  if (message) expect(response.body.message).toMatch(message);
}

/** Reads `url` for `ms` milliseconds (a stream is cut then): the bytes received, as latin1 text. */
export async function readStreamFor(url: string, headers: Record<string, string>, ms: number): Promise<string> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(ms) });
  const chunks: Uint8Array[] = [];
  const reader = response.body!.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  } catch { /* cut after ms */ }
  return Buffer.concat(chunks).toString('latin1');
}
