// An engine's API served over HTTP in this test process, on a free port: the
// set-up of the tests that speak to `serve` (src/server/http.ts) itself.
// (serve.ts starts the CLI's `lantern serve` as a child process instead.)
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServeOptions } from '../../src/server/http.js';
import type { RequestHandler } from '../../src/requester.js';

export interface Served {
  server: Server;
  port: number;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** Closes every connection still open, then the server (the engine is the caller's to close). */
  close(): Promise<void>;
}

/** Serves `handler` (an engine, a cluster node) on a free port of this process. */
export async function serveHere(handler: RequestHandler, options: ServeOptions = {}): Promise<Served> {
  const server = await serve(handler, { port: 0, ...options });
  const { port } = server.address() as AddressInfo;
  return { server, port, origin: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

/** Closes every connection still open, then the server. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
