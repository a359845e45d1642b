// `npm start` builds only what changed (scripts/build-stamp.mjs, the
// `--if-changed` of scripts/build-wasm.mjs and scripts/build.mjs): a stage
// whose inputs hash as at its last build is skipped; `npm run build` always
// builds. The stage decisions on a small tree of their own, then the real
// bundle build on a copy of this repository.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/packed.js';

type Stage = 'wasm' | 'js';
interface BuildStamps {
  STAGES: Record<Stage, { stamp: string }>;
  inputsHash(stage: Stage, root?: string): string;
  isCurrent(stage: Stage, hash: string, root?: string): boolean;
  writeStamp(stage: Stage, hash: string, root?: string): void;
}
// @ts-expect-error a plain .mjs script: its types are JSDoc, which tsconfig.tools.json reads, not this project
const { inputsHash, isCurrent, STAGES, writeStamp }: BuildStamps = await import('../../scripts/build-stamp.mjs');

let dir: string;

beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'lantern-build-changed-')); });
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

function write(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

describe('which stages an --if-changed build runs', () => {
  it('none after a build; the bundles after a change in src/; the core and then the bundles after one in assembly/', () => {
    const root = join(dir, 'stages');
    for (const file of ['assembly/index.ts', 'src/index.ts', 'demo/app.ts', 'build/lantern.wasm', 'dist/cli.js', 'package-lock.json']) write(root, file, `// ${file}\n`);
    const stampBoth = () => { for (const stage of ['wasm', 'js'] as Stage[]) writeStamp(stage, inputsHash(stage, root), root); };
    const current = () => ({ wasm: isCurrent('wasm', inputsHash('wasm', root), root), js: isCurrent('js', inputsHash('js', root), root) });
    expect(current()).toEqual({ wasm: false, js: false }); // never built
    stampBoth();
    expect(current()).toEqual({ wasm: true, js: true });
    // a new time alone (a checkout, a touch) is no change
    utimesSync(join(root, 'src/index.ts'), new Date(), new Date(Date.now() + 60_000));
    expect(current()).toEqual({ wasm: true, js: true });
    write(root, 'src/index.ts', '// src/index.ts, edited\n');
    expect(current()).toEqual({ wasm: true, js: false });
    stampBoth();
    write(root, 'src/core/new-module.ts', 'export {};\n');
    expect(current()).toEqual({ wasm: true, js: false });
    stampBoth();
    write(root, 'assembly/index.ts', '// assembly/index.ts, edited\n');
    expect(current()).toEqual({ wasm: false, js: true });
    // the core built again: a wasm of other bytes makes the bundles stale
    write(root, 'build/lantern.wasm', 'other bytes');
    expect(current().js).toBe(false);
    stampBoth();
    // an output deleted since: built again
    rmSync(join(root, 'dist/cli.js'));
    expect(current()).toEqual({ wasm: true, js: false });
  });

  it('LANTERN_MINIFY=0 (names kept for CPU profiles) builds the bundles again', () => {
    const before = inputsHash('js', ROOT);
    const saved = process.env.LANTERN_MINIFY;
    process.env.LANTERN_MINIFY = '0';
    try {
      expect(inputsHash('js', ROOT)).not.toBe(before);
    } finally {
      if (saved === undefined) delete process.env.LANTERN_MINIFY;
      else process.env.LANTERN_MINIFY = saved;
    }
  });
});

describe('npm start\'s build on a copy of the repository', () => {
  it('does nothing when nothing changed, and bundles again after an edit in src/', () => {
    for (const stage of ['wasm', 'js'] as Stage[]) {
      expect(isCurrent(stage, inputsHash(stage, ROOT), ROOT), `${STAGES[stage].stamp} is not of the sources: run \`npm run build\``).toBe(true);
    }
    const copy = join(dir, 'repo');
    for (const path of ['src', 'assembly', 'demo', 'scripts', 'build', 'dist', 'test/fixtures/talks.json', 'test/fixtures/talks_settings.json',
      'test/fixtures/talks_date_asc_settings.json', 'asconfig.json', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json']) {
      cpSync(join(ROOT, path), join(copy, path), { recursive: true, preserveTimestamps: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const buildChanged = () => ['build-wasm.mjs', 'build.mjs']
      .map((script) => execFileSync(process.execPath, [join('scripts', script), '--if-changed'], { cwd: copy, encoding: 'utf8', timeout: 240_000 }).trim());
    const built = () => statSync(join(copy, 'dist', 'cli.js')).mtimeMs;

    const before = built();
    expect(buildChanged()).toEqual([
      'build:wasm: up to date (assembly/ and its build scripts unchanged)',
      'build:js: up to date (src/, demo/ and build/lantern.wasm unchanged)',
    ]);
    expect(built()).toBe(before);

    writeFileSync(join(copy, 'src', 'cli.ts'), `${readFileSync(join(copy, 'src', 'cli.ts'), 'utf8')}\n// edited\n`);
    const [wasm, js] = buildChanged();
    expect(wasm).toMatch(/^build:wasm: up to date/);
    expect(js).not.toMatch(/up to date/);
    expect(built()).toBeGreaterThan(before);
    expect(readFileSync(join(copy, 'dist', 'build.stamp'), 'utf8')).toBe(inputsHash('js', copy));
    expect(buildChanged()[1]).toMatch(/^build:js: up to date/);
  }, 300_000);
});
