// The "Using other clients and libraries" recipes (docs/clients.md, linked
// from the README), run as written: every block of that section with a
// console.log is taken from docs/clients.md,
// its imports bound to the packages installed here (the v4 and v3 clients
// are npm aliases), port 7700 and SEARCH_KEY swapped for a server on a free
// port and a search key of it; each console.log must print what the comment
// after it says. The browser recipes of the section are the pages of
// test/web/instantsearch-insights.test.ts and autocomplete-docsearch.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import algoliasearchV3 from 'algoliasearch-v3';
import algoliasearchV4 from 'algoliasearch-v4';
import aa from 'search-insights';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { ROOT } from '../support/serve.js';
import { serveHere, type Served } from '../support/in-process-server.js';

const page = readFileSync(join(ROOT, 'docs', 'clients.md'), 'utf8');
const start = page.indexOf('## Using other clients and libraries');
const section = page.slice(start, page.indexOf('\n## ', start + 1));
const runnable = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).filter((code) => code.includes('console.log('));

/** What an import line of a recipe is bound to: by module, and by the version its comment names. */
const MODULES: Record<string, unknown> = {
  'algoliasearch v4': algoliasearchV4,
  'algoliasearch v3': algoliasearchV3,
  'search-insights': aa,
};

let engine: Lantern;
let served: Served;
let port = 0;
let searchKey = '';

beforeAll(async () => {
  engine = await Lantern.open({ appId: 'APP', adminKey: 'ADMIN' });
  served = await serveHere(engine, { host: '127.0.0.1' });
  port = served.port;
  const client = engine.client();
  ({ key: searchKey } = await client.addApiKey({ acl: ['search'] }));
});

afterAll(async () => {
  await served.close();
  await engine.close();
});

/** Runs a recipe; resolves with what each console.log printed and what its comment says it prints. */
async function run(code: string): Promise<{ printed: string[]; expected: string[] }> {
  const names: string[] = [];
  const values: unknown[] = [];
  const body = code.replace(/^import (\w+) from '([^']+)';(?: \/\/ (v\d))?\n/gm, (_line, name: string, module: string, version?: string) => {
    const key = version ? `${module} ${version}` : module;
    if (!(key in MODULES)) throw new Error(`the recipe imports ${key}, which this test does not provide`);
    names.push(name);
    values.push(MODULES[key]);
    return '';
  }).replaceAll('7700', String(port)).replaceAll('SEARCH_KEY', searchKey);
  const printed: string[] = [];
  const console = { log: (...args: unknown[]) => printed.push(args.map(String).join(' ')) };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  await new AsyncFunction(...names, 'console', body)(...values, console);
  const expected = [...code.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((m) => m[1].trim());
  return { printed, expected };
}

describe('docs/clients.md: using other clients and libraries', () => {
  it('has the v4, v3 and search-insights recipes', () => {
    expect(runnable.map((code) => /^import \w+ from '([^']+)';(?: \/\/ (v\d))?/.exec(code)?.slice(1).filter(Boolean).join(' '))).toEqual(Object.keys(MODULES));
  });

  it.each(runnable.map((code, i) => [Object.keys(MODULES)[i], code]))('the %s recipe runs and prints what it says', async (_name, code) => {
    const { printed, expected } = await run(code);
    expect(expected.length).toBeGreaterThan(0);
    expect(printed).toEqual(expected);
  });

  it('the search-insights recipe stored its event, filters decoded', () => {
    const event = engine.analytics.store.events.find((e) => e.eventName === 'Brand Filtered');
    expect(event).toMatchObject({ eventType: 'click', index: 'products', userToken: 'user-1', filters: ['brand:Apple'] });
  });
});
