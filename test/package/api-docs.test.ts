// docs/api, the API reference (typedoc, typedoc.json), is generated from the
// entry points' types and JSDoc: regenerated here, it must be what is
// committed, so the reference never drifts from the code (`npm run docs`
// rewrites it). typedoc.json's validation.notDocumented, with
// treatValidationWarningsAsErrors, makes typedoc fail (and this test with
// it) when an exported symbol, option or method has no description.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/packed.js';

const filesUnder = (dir: string): string[] => readdirSync(dir, { withFileTypes: true, recursive: true })
  .filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort();

describe('the API reference', () => {
  it('is what typedoc generates from the code now (npm run docs)', () => {
    const out = mkdtempSync(join(tmpdir(), 'lantern-api-docs-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--out', out, '--logLevel', 'Error'], { cwd: ROOT, encoding: 'utf8' });
      const committed = join(ROOT, 'docs', 'api');
      expect(filesUnder(out)).toEqual(filesUnder(committed));
      for (const file of filesUnder(out)) expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(committed, file), 'utf8'));
      // what a user reaches first is documented
      expect(readFileSync(join(committed, 'index', 'interfaces', 'LanternOptions.md'), 'utf8')).toMatch(/adminKey[\s\S]*Without one the engine is open/);
      expect(readFileSync(join(committed, 'node', 'functions', 'fsStorage.md'), 'utf8')).toMatch(/A storage in a directory/);
      expect(readFileSync(join(committed, 'index', 'functions', 'lanternRequester.md'), 'utf8')).toMatch(/A requester for the official/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it('fails when an export has no description (typedoc.json: notDocumented, as errors)', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8'));
    expect(config.validation.notDocumented).toBe(true);
    expect(config.treatValidationWarningsAsErrors).toBe(true);
  });
});
