// The `lantern` command (dist/cli.js, built by `npm run build`): import a
// JSON file into a data directory, search it, and serve it over HTTP.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, startServe } from './support/serve.js';

const TALKS = join(ROOT, 'test', 'fixtures', 'talks.json');
const SETTINGS = join(ROOT, 'test', 'fixtures', 'talks_settings.json');

interface Run { code: number | null; stdout: string; stderr: string }

function run(args: string[], timeoutMs = 20000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`lantern ${args.join(' ')} timed out\n${stderr}`)); }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}


let data: string;

beforeAll(() => {
  expect(existsSync(CLI), 'dist/cli.js is missing: run `npm run build`').toBe(true);
  data = mkdtempSync(join(tmpdir(), 'lantern-cli-test-'));
});

afterAll(() => {
  rmSync(data, { recursive: true, force: true });
});

describe('lantern import + search', () => {
  it('imports the talks with their settings, then finds the giver talk for "gvier"', async () => {
    const imported = await run(['import', 'talks', TALKS, '--settings', SETTINGS, '--data', data]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('2356/2356');

    const searched = await run(['search', 'talks', 'gvier', '--data', data]);
    expect(searched.code, searched.stderr).toBe(0);
    const lines = searched.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d+ hits? in \d+ ms$/);
    expect(lines[1].startsWith('2652\t')).toBe(true);
    expect(lines[1]).toContain('Are you a giver or a taker?');
  });

  it('--hits limits the number of printed hits', async () => {
    const searched = await run(['search', 'talks', 'design', '--data', data, '--hits', '3']);
    expect(searched.code, searched.stderr).toBe(0);
    const lines = searched.stdout.trim().split('\n');
    expect(lines.length).toBe(4);
    expect(Number(lines[0].split(' ')[0])).toBeGreaterThan(3);
  });

  it('searching a missing index fails with a message and a non-zero exit code', async () => {
    const searched = await run(['search', 'no_such_index', 'x', '--data', data]);
    expect(searched.code).not.toBe(0);
    expect(searched.stderr).toMatch(/does not exist/);
  });

  it('an unknown command fails with the usage', async () => {
    const result = await run(['frobnicate']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/usage/);
  });

  it('--help prints the usage', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/lantern serve/);
    expect(result.stdout).toMatch(/lantern import/);
  });
});


describe('lantern serve --trust-proxy', () => {
  it('believes X-Forwarded-For only with the flag', async () => {
    const headers = { 'x-algolia-application-id': 'APP', 'x-algolia-api-key': 'ADMIN', 'x-forwarded-for': '198.51.100.23' };
    const ips: string[] = [];
    for (const flags of [[], ['--trust-proxy']]) {
      const { url, stop } = await startServe(['--memory', '--app-id', 'APP', '--admin-key', 'ADMIN', ...flags]);
      try {
        expect((await fetch(`${url}/1/indexes`, { headers })).status).toBe(200);
        const { logs } = await (await fetch(`${url}/1/logs?length=1`, { headers })).json() as { logs: Array<{ ip: string }> };
        ips.push(logs[0].ip);
      } finally {
        expect(await stop()).toBe(0);
      }
    }
    expect(ips).toEqual(['127.0.0.1', '198.51.100.23']);
  });
});

describe('lantern serve', () => {
  it('serves the imported data over HTTP until killed', async () => {
    // the import test above filled `data`; import again if this test runs alone
    const check = await run(['search', 'talks', 'gvier', '--data', data]);
    if (check.code !== 0) {
      const imported = await run(['import', 'talks', TALKS, '--settings', SETTINGS, '--data', data]);
      expect(imported.code, imported.stderr).toBe(0);
    }
    const { url, stop } = await startServe(['--data', data]);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/1/indexes/talks/query`, {
        method: 'POST', body: JSON.stringify({ params: 'query=gvier&hitsPerPage=3' }),
      });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.hits[0].objectID).toBe('2652');
      expect(body.hits[0].name).toBe('Are you a giver or a taker?');
      expect(body.nbHits).toBeGreaterThanOrEqual(1);
    } finally {
      expect(await stop()).toBe(0);
    }
    // a clean shutdown releases the data directory
    const after = await run(['search', 'talks', 'gvier', '--data', data]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('2652\t');
  });
});
