// Static files next to the REST API (what `lantern serve --demo` uses for the
// web demo): content types, HEAD, nothing outside the directory, the API
// still answering every other path.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { staticFiles } from '../../src/server/static.js';
import { serveHere, type Served } from '../support/in-process-server.js';

let dir: string;
let engine: Lantern;
let served: Served;
let base = '';
const WASM = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-static-'));
  const site = join(dir, 'site');
  mkdirSync(join(site, 'data'), { recursive: true });
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>demo</title>');
  writeFileSync(join(site, 'app.js'), 'export {};');
  writeFileSync(join(site, 'style.css'), 'body {}');
  writeFileSync(join(site, 'core.wasm'), WASM);
  writeFileSync(join(site, 'data', 'talks.json'), '[]');
  writeFileSync(join(site, 'odd name.bin'), 'x');
  writeFileSync(join(dir, 'secret.txt'), 'outside the site');
  writeFileSync(join(dir, 'site-secret.txt'), 'a sibling whose name starts like the site');
  engine = await Lantern.open();
  served = await serveHere(engine, { fallback: staticFiles(site, '/demo/') });
  base = served.origin;
});

afterAll(async () => {
  await served.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('staticFiles', () => {
  it.each([
    ['/demo/', 'text/html; charset=utf-8'],
    ['/demo/index.html', 'text/html; charset=utf-8'],
    ['/demo/app.js', 'text/javascript; charset=utf-8'],
    ['/demo/style.css', 'text/css; charset=utf-8'],
    ['/demo/core.wasm', 'application/wasm'],
    ['/demo/data/talks.json', 'application/json; charset=utf-8'],
    ['/demo/odd%20name.bin', 'application/octet-stream'],
  ])('GET %s → 200 %s', async (path, type) => {
    const response = await fetch(base + path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
  });

  it('sends the bytes as they are on disk, with their length; HEAD sends the headers only', async () => {
    const response = await fetch(`${base}/demo/core.wasm`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(WASM);
    expect(response.headers.get('content-length')).toBe(String(WASM.length));
    const head = await fetch(`${base}/demo/core.wasm`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(WASM.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('redirects the prefix without its slash, keeping the query string', async () => {
    const response = await fetch(`${base}/demo?q=1`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/demo/?q=1');
  });

  it.each([
    '/demo/..%2fsecret.txt',
    '/demo/%2e%2e/secret.txt',
    '/demo/..%2f..%2fsecret.txt',
    '/demo/..%5csecret.txt',
    '/demo/..%2fsite-secret.txt',
    '/demo/%00index.html',
    '/demo/missing.js',
    '/demo/data/',
  ])('GET %s → 404, nothing from outside the directory', async (path) => {
    const response = await fetch(base + path);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toMatch(/outside the site|starts like the site/);
  });

  it('a malformed escape is a 400; writing methods are a 405', async () => {
    expect((await fetch(`${base}/demo/%E0%A4%A`)).status).toBe(400);
    const post = await fetch(`${base}/demo/index.html`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('every other path is still the REST API', async () => {
    const response = await fetch(`${base}/1/indexes`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ items: [] });
    expect((await fetch(`${base}/demonstration`)).status).toBe(404);
  });
});
