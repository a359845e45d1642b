// `lantern serve --max-analytics-events N`: the searches (and insight
// events) a server keeps for analytics; past it the oldest go. A value that
// is not a whole number from 1 is one line.
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type Served } from '../support/serve.js';
import { runLantern } from '../support/cli.js';

let served: Served | undefined;
afterEach(async () => { await served?.stop(); served = undefined; });

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(served!.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('lantern serve --max-analytics-events', () => {
  it('keeps the newest searches, that many and an eighth more at most', async () => {
    served = await startServe(['--memory', '--max-analytics-events', '16']);
    expect((await call('POST', '/1/indexes/talks/batch', { requests: [{ action: 'addObject', body: { objectID: '1', title: 'a talk' } }] })).status).toBe(200);
    for (let i = 0; i < 60; i++) expect((await call('POST', '/1/indexes/talks/query', { query: `talk ${i}` })).status).toBe(200);
    const top = await call('GET', '/2/searches?index=talks&limit=1000');
    expect(top.status).toBe(200);
    const queries: string[] = top.body.searches.map((s: { search: string }) => s.search);
    expect(queries.length).toBeGreaterThanOrEqual(16);
    expect(queries.length).toBeLessThanOrEqual(18);
    expect(queries).toContain('talk 59');
    expect(queries).not.toContain('talk 0');
  });

  it('refuses a value that is not a whole number from 1 in one line', async () => {
    for (const value of ['few', '0']) {
      const run = await runLantern(['serve', '--memory', '--port', '0', '--max-analytics-events', value]);
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/--max-analytics-events needs a whole number from 1/);
    }
  });
});
