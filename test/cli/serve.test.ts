// `lantern serve` (dist/cli.js) as a real process: the demo's import
// finished by the next start when the first is stopped midway, an admin key
// set but empty refused, and the commands that ask a server (--url) finding
// its application id.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, startServe } from '../support/serve.js';
import { runLantern } from '../support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'lantern-serve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TALKS = join(ROOT, 'test', 'fixtures', 'talks.json');
const DEMO_TALKS = (JSON.parse(readFileSync(join(ROOT, 'dist', 'demo', 'data', 'manifest.json'), 'utf8')) as { talks: number }).talks;

/**
 * Whether the log holds a batch of talks written whole: a frame (u32 payload
 * length, u32 CRC, f64 taskID, payload) of over 100 KB that ends within the
 * file. A size alone is no sign: a large batch's frame may be half written.
 */
function holdsWholeBatch(log: string): boolean {
  if (!existsSync(log)) return false;
  const bytes = readFileSync(log);
  for (let at = 0; at + 16 <= bytes.length;) {
    const end = at + 16 + bytes.readUInt32LE(at);
    if (end > bytes.length) return false;
    if (end - at > 100_000) return true;
    at = end;
  }
  return false;
}

describe('serve --demo stopped during its first import', () => {
  /** Starts `serve --demo` on `store` and sends `signal` once the first batch of talks is in the store's log; resolves with what it printed. */
  async function startAndStop(store: string, signal: NodeJS.Signals): Promise<string> {
    const child = spawn(process.execPath, [CLI, 'serve', '--demo', '--data', store, '--port', '0'], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const log = join(store, 'log.bin');
    while (!holdsWholeBatch(log)) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill(signal);
    await exited;
    expect(output).not.toMatch(/listening on/);
    return output;
  }

  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    it(`${signal}: the next start imports every talk, with the settings the first inferred; the one after imports nothing`, async () => {
      const store = mkdtempSync(join(root, `demo-${signal}-`));
      const first = await startAndStop(store, signal);
      const inferred = JSON.parse(/^settings inferred from the first [\d,]+ records .*?: (\{.*\})$/m.exec(first)![1]!);

      const second = await startServe(['--demo', '--data', store], {}, 60_000);
      try {
        const resumed = /the demo's import did not finish \(([\d,]+) of ([\d,]+) talks are in\)/.exec(second.output());
        expect(resumed, second.output()).not.toBeNull();
        const had = Number(resumed![1]!.replaceAll(',', ''));
        expect(had).toBeGreaterThan(0);
        expect(had).toBeLessThan(DEMO_TALKS);
        const { items } = await (await fetch(`${second.url}/1/indexes`)).json() as { items: Array<{ name: string; entries: number }> };
        expect(items.find((i) => i.name === 'talks')?.entries).toBe(DEMO_TALKS);
        const settings = await (await fetch(`${second.url}/1/indexes/talks/settings`)).json() as Record<string, unknown>;
        expect(settings.searchableAttributes).toEqual(inferred.searchableAttributes);
        expect(settings.attributesForFaceting).toContain('searchable(tags)');
      } finally {
        expect(await second.stop()).toBe(0);
      }
      const third = await startServe(['--demo', '--data', store], {}, 60_000);
      try {
        await new Promise((resolve) => setTimeout(resolve, 200)); // the lines after "listening on"
        expect(third.output()).not.toMatch(/import|inferred/);
      } finally {
        expect(await third.stop()).toBe(0);
      }
    }, 120_000);
  }
});

describe('an admin key set but empty', () => {
  it('is refused in one line with a hint: a server would take it for no key and let anyone in', async () => {
    const fromVariable = await runLantern(['serve', '--memory', '--port', '0'], { env: { LANTERN_ADMIN_KEY: '' } });
    expect(fromVariable.code).toBe(1);
    expect(fromVariable.stderr).toBe('lantern: LANTERN_ADMIN_KEY is set but empty: set it to the admin key, or unset it to run without one\n');
    const fromFlag = await runLantern(['serve', '--memory', '--port', '0', '--admin-key', '']);
    expect(fromFlag.code).toBe(1);
    expect(fromFlag.stderr).toBe('lantern: --admin-key is empty: give the admin key, or leave --admin-key out to run without one\n');
  });
});

describe('--url to a server with an application id and an admin key', () => {
  it('import and search find the application id with the admin key; other credentials get one line saying what to give', async () => {
    const server = await startServe(['--data', mkdtempSync(join(root, 'app-')), '--app-id', 'APP7'], { LANTERN_ADMIN_KEY: 'the-admin-key' });
    try {
      const env = { LANTERN_ADMIN_KEY: 'the-admin-key' };
      const imported = await runLantern(['import', 'talks', TALKS, '--url', server.url], { env, timeoutMs: 60_000 });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/^imported 2,356 records into "talks"/);
      const searched = await runLantern(['search', 'talks', 'gvier', '--url', server.url], { env });
      expect(searched.code, searched.stderr).toBe(0);
      expect(searched.stdout.split('\n')[1]).toMatch(/^2652\t/);

      // the server tells the application id to the admin key's holder only
      const ask = (key: string) => fetch(`${server.url}/1/indexes`, { headers: { 'x-algolia-api-key': key } }).then((r) => r.json() as Promise<{ message: string }>);
      expect((await ask('the-admin-key')).message).toBe('Invalid Application-ID or API key (the admin key is right: the application id is "APP7")');
      expect((await ask('another-key')).message).toBe('Invalid Application-ID or API key');
      const refused = await runLantern(['search', 'talks', 'gvier', '--url', server.url, '--admin-key', 'another-key']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe('lantern: Invalid Application-ID or API key: give the admin key lantern serve was started with (--admin-key or LANTERN_ADMIN_KEY) and its --app-id\n');
    } finally {
      await server.stop();
    }
  }, 90_000);
});
