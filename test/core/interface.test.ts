// The WebAssembly interface is declared by hand in src/core/wasm.ts
// (CoreExports: the package's types cannot reach build/, which is not
// shipped); the compiler emits its own declaration (build/lantern.d.ts).
// They must agree: the types here (checked by `npm run typecheck`, which
// builds the core first) and the names the instance really exports.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { compileCore, loadCore, type CoreExports } from '../../src/core/wasm.js';
import type { instantiate } from '../../build/lantern.js';

type Emitted = Awaited<ReturnType<typeof instantiate>>;

beforeAll(loadCore);

describe('the core\'s interface', () => {
  it('CoreExports is what the compiler declares, export for export', async () => {
    expectTypeOf<CoreExports>().toEqualTypeOf<{ [K in keyof Emitted]: Emitted[K] }>();
    const declared = [...readFileSync(new URL('../../build/lantern.d.ts', import.meta.url), 'utf8').matchAll(/^ {2}export (?:function|const) (\w+)/gm)].map((m) => m[1]).sort();
    const exported = WebAssembly.Module.exports(await compileCore()).map((e) => e.name).sort();
    expect(exported).toEqual(declared);
    expect(declared.length).toBeGreaterThan(20);
  });
});
