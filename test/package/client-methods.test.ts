// docs/client-methods.md lists the client's methods, made by
// scripts/gen-client-methods.mjs from what the client is built from (the
// route table and createClient's helpers): the committed page must be what
// it makes now (`npm run docs` rewrites it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientMethodsPage, PAGE } from '../../scripts/gen-client-methods.mjs';
import { createClient } from '../../src/api/client.js';
import { ROUTES } from '../../src/api/routes.js';

describe('docs/client-methods.md', () => {
  it('is what scripts/gen-client-methods.mjs makes from the route table now', async () => {
    expect(readFileSync(PAGE, 'utf8')).toBe(await clientMethodsPage());
  });

  it('names every method of the client, with its route', () => {
    const page = readFileSync(PAGE, 'utf8');
    const client = createClient(async () => ({ status: 200, headers: {}, body: {} }), undefined, undefined);
    for (const name of Object.keys(client)) expect(page, name).toContain(`\`${name}\``);
    for (const route of ROUTES) expect(page, route.op).toContain(`| \`${route.op}\` | \`${route.method} ${route.path}\` |`);
  });
});
