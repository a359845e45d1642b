// The WebAssembly interface is declared by hand in src/core/wasm.ts
// (CoreExports: the package's types cannot reach build/, which is not
// shipped); the compiler emits its own declaration (build/lantern.d.ts).
// They must agree: the types here (checked by `npm run typecheck`, which
// builds the core first) and the names the instance really exports.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { compileCore, loadCore, type CoreExports } from '../../src/core/wasm.js';
import type { instantiate } from '../../build/lantern.js';
import { P, PARAM_COUNT } from '../../src/core/abi.js';

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

  it('the TypeScript side\'s numbers are the core\'s own: abi-slots.ts is what scripts/gen-abi.mjs makes of assembly/ now', async () => {
    // @ts-expect-error a plain .mjs script, no declarations
    const { generate } = await import('../../scripts/gen-abi.mjs');
    expect(readFileSync(new URL('../../src/core/abi-slots.ts', import.meta.url), 'utf8')).toBe(generate());
    const source = readFileSync(new URL('../../assembly/params.ts', import.meta.url), 'utf8');
    const slotOf = (name: string) => Number(new RegExp(`export const P_${name} = (\\d+);`).exec(source)![1]);
    for (const [name, slot] of Object.entries(P)) {
      expect(slot, name).toBe(slotOf(name));
      expect(slot).toBeLessThan(PARAM_COUNT);
    }
    expect(Object.keys(P)).toHaveLength([...source.matchAll(/^export const P_/gm)].length);
  });
});
