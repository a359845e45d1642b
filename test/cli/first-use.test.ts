// The lantern command as a new user meets it: a mistyped flag value is one
// line naming the flag, the value and what it takes (never Node's own text);
// a data directory that is not there is refused, not created; what `serve`
// prints to try answers; the version comes from package.json.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, startServe } from '../support/serve.js';
import { runLantern } from '../support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'lantern-first-use-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CONTACTS = join(ROOT, 'test', 'fixtures', 'contacts.json');

/** Runs lantern in `root`, where a default lantern-data/ would appear. */
const run = (args: string[]) => runLantern(args, { cwd: root });

describe('a flag\'s value that is not what it takes', () => {
  const cases: Array<[args: string[], line: string]> = [
    [['serve', '--port', 'abc'], '--port needs a whole number from 0 to 65535, not "abc"'],
    [['serve', '--port', '70000'], '--port needs a whole number from 0 to 65535, not "70000"'],
    [['serve', '--workers', 'many'], '--workers needs a whole number from 1, or auto, not "many"'],
    [['serve', '--nats', 'nats://127.0.0.1:4222', '--app-id', 'A', '--nats-replicas', '7'], '--nats-replicas needs a whole number from 1 to 5, not "7"'],
    [['serve', '--snapshot-every', '-1'], '--snapshot-every needs a whole number from 0, not "-1"'],
    [['search', 'contacts', 'x', '--hits', 'ten'], '--hits needs a whole number from 0 to 1000, not "ten"'],
    [['import', 'contacts', CONTACTS, '--skip', '1.5'], '--skip needs a whole number from 0, not "1.5"'],
    [['serve', '--port'], '--port needs a whole number from 0 to 65535'],
    [['serve', '--demo=yes'], '--demo takes no value'],
    [['serve', '--prot', '7700'], 'unknown option --prot'],
    [['embed', CONTACTS, '--url', 'http://127.0.0.1:9', '--template', '-x'], '--template -x: a value starting with "-" goes as --template=-x'],
    [['import', 'contacts', CONTACTS, '--format', 'xml'], '--format needs one of json, ndjson, csv, not "xml"'],
    [['embed', CONTACTS, '--url', 'http://127.0.0.1:9', '--batch', '500'], '--batch needs a whole number from 1 to 64, not "500"'],
    [['embed', CONTACTS, '--url', 'http://127.0.0.1:9', '--concurrency', '0'], '--concurrency needs a whole number from 1, not "0"'],
  ];
  for (const [args, line] of cases) {
    it(`lantern ${args.join(' ')}`, async () => {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`lantern: ${line} (lantern --help lists the options)\n`);
      expect(r.stdout).toBe('');
      expect(readdirSync(root)).toEqual([]); // nothing opened, nothing created
    });
  }
});

describe('a data directory that is not there', () => {
  it('search, export and repair refuse it with one line, and create nothing', async () => {
    for (const args of [['search', 'contacts', 'x', '--data', 'nothere'], ['export', 'contacts', '--data', 'nothere']]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('lantern: nothere does not exist: pass --data with the store\'s directory, or --url http://HOST:PORT to ask a running lantern serve\n');
    }
    // without --data: the default, lantern-data
    const search = await run(['search', 'contacts', 'x']);
    expect(search.stderr).toBe('lantern: lantern-data does not exist: pass --data with the store\'s directory, or --url http://HOST:PORT to ask a running lantern serve\n');
    const repair = await run(['repair', '--data', 'nothere']);
    expect(repair.code).toBe(1);
    expect(repair.stderr).toBe('lantern: nothere does not exist: pass --data with the store\'s directory\n');
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('serve', () => {
  /** Runs the line serve printed after "try: ", through the shell as a user pastes it; its answer. */
  const tryLine = (output: string) => {
    const command = /^try: (curl .*)$/m.exec(output)?.[1];
    expect(command, output).toBeDefined();
    return JSON.parse(execFileSync('/bin/sh', ['-c', command!], { encoding: 'utf8' })) as Record<string, unknown>;
  };

  it('with no index, prints how to add one and a call that lists the indexes', async () => {
    const served = await startServe(['--memory']);
    try {
      await expect.poll(served.output).toMatch(/^try: /m);
      const lines = served.output().trim().split('\n');
      expect(lines).toEqual([`listening on ${served.url}`, `no index yet: lantern import INDEX FILE --url ${served.url} adds one`, `try: curl -s ${served.url}/1/indexes`]);
      expect(tryLine(served.output())).toMatchObject({ items: [], nbPages: 1 });
    } finally {
      await served.stop();
    }
  });

  it('on a store with an index, prints a query of that index that answers with its records', async () => {
    const data = join(root, 'store');
    expect((await runLantern(['import', 'my contacts (2)', CONTACTS, '--data', data])).code).toBe(0);
    // one hit is "1 hit" (the file has one Essie, one Vaill)
    const contacts = JSON.parse(readFileSync(CONTACTS, 'utf8')) as Array<{ firstname: string; lastname: string }>;
    expect(contacts.filter((c) => c.firstname === 'Essie' || c.lastname === 'Vaill')).toHaveLength(1);
    expect((await runLantern(['search', 'my contacts (2)', 'essie vaill', '--data', data])).stdout).toMatch(/^1 hit in \d+ ms\n/);
    const served = await startServe(['--data', data]);
    try {
      await expect.poll(served.output).toMatch(/^try: /m);
      expect(served.output()).toMatch(/^try: curl -s -X POST http:\S+\/1\/indexes\/my%20contacts%20%282%29\/query -d '\{"params":"hitsPerPage=3"\}'$/m);
      const answer = tryLine(served.output()) as { hits: unknown[]; nbHits: number };
      expect(answer.hits).toHaveLength(3);
      expect(answer.nbHits).toBe((JSON.parse(readFileSync(CONTACTS, 'utf8')) as unknown[]).length);
    } finally {
      await served.stop();
    }
  }, 30_000);

  it('GET / describes the server with links that answer', async () => {
    const served = await startServe(['--memory']);
    try {
      const about = await (await fetch(`${served.url}/`)).json();
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      expect(about).toEqual({ name: 'lantern-search', version, api: '/1/', indexes: '/1/indexes' });
      expect((await fetch(`${served.url}${about.indexes}`)).status).toBe(200);
    } finally {
      await served.stop();
    }
  });
});

describe('the version', () => {
  it('--version and -v print package.json\'s version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const r = await run([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
    }
    expect(existsSync(join(root, 'lantern-data'))).toBe(false);
  });
});
