// The `lantern` command (dist/cli.js, built by `npm run build`): import a
// JSON file into a data directory, search it, and serve it over HTTP.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, startServe } from './support/serve.js';
import { runLantern, type Run } from './support/cli.js';

const TALKS = join(ROOT, 'test', 'fixtures', 'talks.json');
const SETTINGS = join(ROOT, 'test', 'fixtures', 'talks_settings.json');

const run = (args: string[], timeoutMs?: number) => runLantern(args, { timeoutMs });

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
    expect(imported.stdout).toMatch(/^imported 2,356 records into "talks" in [\d.]+ s/);
    // the talks' settings name 12 replicas: left out unless asked
    expect(imported.stdout).toMatch(/the settings name 12 replicas .*not created; --with-replicas creates them/);

    const searched = await run(['search', 'talks', 'gvier', '--data', data]);
    expect(searched.code, searched.stderr).toBe(0);
    const lines = searched.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d+ hits? in \d+ ms$/);
    expect(lines[1].startsWith('2652\t')).toBe(true);
    expect(lines[1]).toContain('Are you a giver or a taker?');
  });

  it('without --settings, a new index gets search-box settings inferred from the file, printed', async () => {
    const dir = mkdtempSync(join(data, 'inferred-'));
    const contacts = join(ROOT, 'test', 'fixtures', 'contacts.json');
    const imported = await run(['import', 'contacts', contacts, '--data', dir]);
    expect(imported.code, imported.stderr).toBe(0);
    const printed = /^settings inferred from the first 500 records \(--settings FILE.json to choose your own\): (\{.*\})$/m.exec(imported.stderr);
    expect(printed, imported.stderr).not.toBeNull();
    const inferred = JSON.parse(printed![1]);
    expect(inferred).toMatchObject({ removeWordsIfNoResults: 'allOptional', removeStopWords: true });
    expect(inferred.searchableAttributes.slice(0, 2)).toEqual(['firstname', 'lastname']);
    // the recipe applies: an extra word, a stop word, still finds Essie Vaill first
    const searched = await run(['search', 'contacts', 'the essie vaill zzqq', '--data', dir]);
    expect(searched.code, searched.stderr).toBe(0);
    expect(searched.stdout.split('\n')[1]).toContain('Vaill');
    // an existing index keeps its settings: nothing inferred again
    const again = await run(['import', 'contacts', contacts, '--data', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/settings inferred/);
    // with --settings, nothing inferred either
    const given = await run(['import', 'talks', TALKS, '--settings', SETTINGS, '--data', dir]);
    expect(given.stderr).not.toMatch(/settings inferred/);
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


describe('lantern serve: the admin key is never printed', () => {
  const KEY = 'cli-admin-key-0123456789abcdef';
  it('the try: line names $LANTERN_ADMIN_KEY, not the key; the key may come from that variable', async () => {
    for (const [args, env] of [[['--admin-key', KEY], {}], [[], { LANTERN_ADMIN_KEY: KEY }]] as const) {
      const { url, output, stop } = await startServe(['--memory', '--app-id', 'APP', ...args], env);
      try {
        await new Promise((resolve) => setTimeout(resolve, 200)); // the lines after "listening on"
        expect(output()).not.toContain(KEY);
        expect(output()).toMatch(/try: curl -s -H "X-Algolia-API-Key: \$LANTERN_ADMIN_KEY" -H 'X-Algolia-Application-Id: APP'/);
        const headers = { 'x-algolia-application-id': 'APP', 'x-algolia-api-key': KEY };
        expect((await fetch(`${url}/1/indexes`, { headers })).status).toBe(200);
        expect((await fetch(`${url}/1/indexes`, { headers: { ...headers, 'x-algolia-api-key': 'wrong' } })).status).toBe(403);
      } finally {
        expect(await stop()).toBe(0);
      }
    }
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

describe('lantern on a damaged or busy store', () => {
  const fresh = () => mkdtempSync(join(data, 'store-'));

  it('records of folded Latin letters (æ ǽ, Æ Ǽ) survive the import\'s snapshot and are found', async () => {
    const dir = fresh();
    const file = join(dir, '..', `latin-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify([{ objectID: '1', t: 'æ ǽ' }, { objectID: '2', t: 'Æ Ǽ ǿ' }]));
    expect((await run(['import', 'x', file, '--data', dir])).code).toBe(0);
    const searched = await run(['search', 'x', 'ae', '--data', dir]);
    expect(searched.code, searched.stderr).toBe(0);
    expect(searched.stdout).toMatch(/^2 hits/);
  });

  it('a store that lost writes: one line naming the repair; `lantern repair` keeps the rest and says what was lost', async () => {
    const dir = fresh();
    const file = join(dir, '..', `few-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify([{ objectID: 'a', t: 'alpha' }]));
    expect((await run(['import', 'x', file, '--data', dir])).code).toBe(0);
    writeFileSync(file, JSON.stringify([{ objectID: 'b', t: 'bravo' }]));
    expect((await run(['import', 'x', file, '--data', dir])).code).toBe(0);
    // both snapshots gone: the log alone is not the whole history
    for (const f of readdirSync(dir).filter((f) => f.startsWith('snapshot-'))) rmSync(join(dir, f));

    const refused = await run(['search', 'x', 'alpha', '--data', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^lantern: the store is damaged: .*missing.*lantern repair/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);

    const repaired = await run(['repair', '--data', dir]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(/repaired/);
    expect(repaired.stdout).toMatch(/lost: .*no snapshot/);
    const after = await run(['search', 'x', '', '--data', dir]);
    expect(after.code, after.stderr).toBe(0);
    expect((await run(['repair', '--data', dir])).stdout).toMatch(/nothing to repair/);
  });

  it('a LOCK held by another live process: one line naming the LOCK file', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'LOCK'), String(process.pid));
    const refused = await run(['search', 'x', 'a', '--data', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`lantern: ${dir} is in use: ${join(dir, 'LOCK')} is held by process ${process.pid}, which is still running (stop it, or use another --data directory); if it is a lantern serve, ask it instead: --url http://HOST:PORT\n`);
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid));
  });
});

describe('one line, never a stack trace', () => {
  const noStack = (r: Run) => expect(r.stderr).not.toMatch(/\n\s+at /);

  it('--version prints the package version', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('an unknown option: one line with a hint, exit code 2', async () => {
    const r = await run(['search', 'x', 'y', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe('lantern: unknown option --bogus (lantern --help lists the options)\n');
  });

  it('a record the engine refuses: one line naming the records not imported and why', async () => {
    const dir = mkdtempSync(join(data, 'refused-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '[{"objectID":"1","n":1},{"objectID":"2","n":1e309}]');
    const r = await run(['import', 'x', file, '--data', join(dir, 'store')]);
    expect(r.code).toBe(1);
    // the settings inferred for the new index are printed first (stderr, with the progress)
    const lines = r.stderr.trim().split('\n').filter((line) => !line.startsWith('settings inferred'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^lantern: .*bad\.json: records 1 to 2 were not imported: .*Record "2" .*"n" is Infinity/);
    noStack(r);
  });

  it('a settings file that is not a JSON object: one line, nothing imported', async () => {
    const dir = mkdtempSync(join(data, 'settings-'));
    const file = join(dir, 'r.json');
    writeFileSync(file, '[{"objectID":"1"}]');
    const cases = [
      { name: 'list.json', text: '["searchableAttributes"]', says: /list\.json must hold a JSON object of settings/ },
      { name: 'broken.json', text: '{"ranking": [', says: /cannot read .*broken\.json/ },
    ];
    for (const { name, text, says } of cases) {
      writeFileSync(join(dir, name), text);
      const r = await run(['import', 'x', file, '--settings', join(dir, name), '--data', join(dir, 'store')]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(says);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      noStack(r);
    }
    expect(existsSync(join(dir, 'store'))).toBe(false);
  });

  it('a port in use: one line naming it', async () => {
    const server = await startServe(['--memory', '--port', '0']);
    try {
      const port = new URL(server.url).port;
      const r = await run(['serve', '--memory', '--port', port]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`lantern: port ${port} on 127.0.0.1 is in use (by another lantern serve?): pass --port with another port\n`);
    } finally {
      await server.stop();
    }
  });
});

describe('lantern serve at /', () => {
  it('answers GET / with what is running (the address serve prints first), and the demo under --demo', async () => {
    const plain = await startServe(['--memory', '--port', '0']);
    try {
      const r = await fetch(`${plain.url}/`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ name: 'lantern-search', version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version, api: '/1/', indexes: '/1/indexes' });
      // the API is untouched
      expect((await fetch(`${plain.url}/1/indexes`)).status).toBe(200);
    } finally {
      await plain.stop();
    }
    const demo = await startServe(['--memory', '--demo', '--port', '0']);
    try {
      const r = await fetch(`${demo.url}/`, { redirect: 'manual' });
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe('/demo/');
    } finally {
      await demo.stop();
    }
  }, 60_000);
});

describe('lantern import of NDJSON, CSV and large files', () => {
  const search = async (store: string, index: string, query: string) => {
    const r = await run(['search', index, query, '--data', store, '--hits', '1000']);
    expect(r.code, r.stderr).toBe(0);
    return { nbHits: Number(r.stdout.split(' ')[0]), lines: r.stdout.trim().split('\n').slice(1) };
  };

  it('NDJSON: a record a line, blank lines skipped; a bad line is named', async () => {
    const dir = mkdtempSync(join(data, 'ndjson-'));
    const file = join(dir, 'talks.ndjson');
    writeFileSync(file, '{"objectID":"a","title":"amber grove"}\n\n{"objectID":"b","title":"amber dune"}\n');
    const r = await run(['import', 'nd', file, '--data', join(dir, 'store')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^imported 2 records into "nd"/);
    expect((await search(join(dir, 'store'), 'nd', 'amber')).nbHits).toBe(2);
    writeFileSync(file, '{"objectID":"c"}\n{"objectID": oops}\n');
    const bad = await run(['import', 'nd', file, '--data', join(dir, 'store')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^lantern: .*talks\.ndjson: record 2 \(line 2\): not JSON/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('CSV with a header row: numbers and booleans inferred, --types overrides; a bad typed value is named', async () => {
    const dir = mkdtempSync(join(data, 'csv-'));
    const file = join(dir, 'products.csv');
    writeFileSync(file, 'objectID,name,price,zip,stock,tags\np1,"Lamp, brass",12.5,01234,true,"[""home""]"\np2,Desk,120,98000,false,[]\n');
    const r = await run(['import', 'products', file, '--types', 'zip:string,tags:json', '--data', join(dir, 'store')]);
    expect(r.code, r.stderr).toBe(0);
    const found = await search(join(dir, 'store'), 'products', 'lamp');
    expect(found.lines[0]).toBe('p1\t{"name":"Lamp, brass","price":12.5,"zip":"01234","stock":true,"tags":["home"]}');
    const bad = await run(['import', 'products', file, '--types', 'name:number', '--data', join(dir, 'store')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/record 1 \(line 2\): column "name": "Lamp, brass" is not a number/);
    const badFlag = await run(['import', 'products', file, '--types', 'name:date', '--data', join(dir, 'store')]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/--types takes COLUMN:TYPE pairs/);
  });

  it('a JSON object instead of an array is refused in one line', async () => {
    const dir = mkdtempSync(join(data, 'object-'));
    const file = join(dir, 'one.json');
    writeFileSync(file, '  {"objectID":"a","title":"x"}');
    // by its first character a .json object is NDJSON: one record
    expect((await run(['import', 'o', file, '--data', join(dir, 'store')])).stdout).toMatch(/^imported 1 records/);
    const forced = await run(['import', 'o', file, '--format', 'json', '--data', join(dir, 'store')]);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toMatch(/holds a JSON object, not an array of records/);
  });

  it('records without objectID: imported, and one warning says a second import adds them again', async () => {
    const dir = mkdtempSync(join(data, 'noid-'));
    const file = join(dir, 'noid.json');
    writeFileSync(file, JSON.stringify([{ t: 'amber one' }, { t: 'amber two' }, { objectID: 'x', t: 'amber three' }]));
    const r = await run(['import', 'n', file, '--data', join(dir, 'store')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/warning/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/warning: 2 records had no objectID/);
    await run(['import', 'n', file, '--data', join(dir, 'store')]);
    expect((await search(join(dir, 'store'), 'n', 'amber')).nbHits).toBe(5);
  });

  it('--dry-run reads and checks the file and writes nothing', async () => {
    const dir = mkdtempSync(join(data, 'dry-'));
    const r = await run(['import', 'talks', TALKS, '--dry-run', '--data', join(dir, 'store')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^read 2,356 records in [\d.]+ s.*nothing written \(--dry-run\)/);
    expect(existsSync(join(dir, 'store'))).toBe(false);
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, '{"objectID":"1"}\n[oops\n');
    const refused = await run(['import', 'x', bad, '--dry-run']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/record 2 \(line 2\): not JSON/);
  });

  it('--with-replicas creates the replicas the settings name', async () => {
    const dir = mkdtempSync(join(data, 'replicas-'));
    const file = join(dir, 'r.json');
    writeFileSync(file, JSON.stringify([{ objectID: '1', t: 'amber' }]));
    const settings = join(dir, 'settings.json');
    writeFileSync(settings, JSON.stringify({ replicas: ['r_asc'] }));
    const r = await run(['import', 'main', file, '--settings', settings, '--with-replicas', '--data', join(dir, 'store')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/replicas/);
    expect((await search(join(dir, 'store'), 'r_asc', 'amber')).nbHits).toBe(1);
  });
});

describe('lantern search --url, export, help', () => {
  it('search --url asks the running server that holds the store; export writes NDJSON that import reads back', async () => {
    const dir = mkdtempSync(join(data, 'export-'));
    const store = join(dir, 'store');
    const imported = await run(['import', 'talks', TALKS, '--data', store]);
    expect(imported.code, imported.stderr).toBe(0);
    const server = await startServe(['--data', store, '--port', '0']);
    try {
      const locked = await run(['search', 'talks', 'gvier', '--data', store]);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch(/is in use: .*ask it instead: --url/);
      const asked = await run(['search', 'talks', 'gvier', '--url', server.url]);
      expect(asked.code, asked.stderr).toBe(0);
      expect(asked.stdout.split('\n')[1]).toMatch(/^2652\t.*Are you a giver or a taker\?/);
      const exported = await run(['export', 'talks', '--url', server.url], 60_000);
      expect(exported.code, exported.stderr).toBe(0);
      const lines = exported.stdout.trim().split('\n');
      expect(lines).toHaveLength(2356);
      const talks = JSON.parse(readFileSync(TALKS, 'utf8')) as Array<{ objectID: string }>;
      const byId = new Map(lines.map((line) => { const r = JSON.parse(line); return [r.objectID, r]; }));
      // every record, exactly as imported
      for (const talk of talks) expect(byId.get(talk.objectID)).toEqual(talk);
      const file = join(dir, 'talks.ndjson');
      writeFileSync(file, exported.stdout);
      const again = await run(['import', 'copy', file, '--data', join(dir, 'other')]);
      expect(again.stdout).toMatch(/^imported 2,356 records into "copy"/);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('import --url sends the records to the running server, which indexes them; a server that is not there is one line', async () => {
    const dir = mkdtempSync(join(data, 'import-url-'));
    const server = await startServe(['--data', join(dir, 'store'), '--port', '0', '--admin-key', 'k'], {});
    try {
      const imported = await run(['import', 'talks', TALKS, '--settings', SETTINGS, '--url', server.url, '--admin-key', 'k']);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/^imported 2,356 records into "talks"/);
      const asked = await run(['search', 'talks', 'gvier', '--url', server.url, '--admin-key', 'k']);
      expect(asked.stdout.split('\n')[1]).toMatch(/^2652\t.*Are you a giver or a taker\?/);
      // the server's own store holds them: nothing was written next to the file or in a default directory
      expect(existsSync(join(dir, 'store'))).toBe(true);
      const refused = await run(['import', 'talks', TALKS, '--url', server.url, '--admin-key', 'wrong']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^lantern: .*Invalid Application-ID or API key: give the admin key lantern serve was started with .* and its --app-id\n$/);
    } finally {
      await server.stop();
    }
    const nobody = await run(['import', 'talks', TALKS, '--url', 'http://127.0.0.1:9']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/^lantern: no answer from http:\/\/127\.0\.0\.1:9: .*\n$/);
    const both = await run(['import', 'talks', TALKS, '--url', 'http://127.0.0.1:9', '--data', dir]);
    expect(both.code).toBe(2);
  }, 90_000);

  it('help COMMAND prints that command\'s usage; an unknown one is one line', async () => {
    const help = await run(['help', 'import']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^lantern import INDEX FILE/);
    expect(help.stdout).toMatch(/--with-replicas/);
    const unknown = await run(['help', 'toString']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('lantern: no command "toString" (commands: serve, import, search, export, embed, repair) (lantern --help shows the usage)\n');
  });
});

