import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Vite cannot import .wasm as bytes; this does what esbuild's binary loader does.
const wasmBytes = {
  name: 'wasm-bytes',
  enforce: 'pre' as const,
  load(id: string) {
    if (!id.endsWith('.wasm')) return null;
    const base64 = readFileSync(id).toString('base64');
    return `export default Uint8Array.from(atob(${JSON.stringify(base64)}), c => c.charCodeAt(0));`;
  },
};

export default defineConfig({
  plugins: [wasmBytes],
  // the tests run in Node: the engine gets Node's platform, as dist/ does (scripts/build.mjs)
  resolve: { alias: [{ find: /^(.*\/platform)\/platform\.js$/, replacement: '$1/platform.node.ts' }] },
  test: { include: ['test/**/*.test.ts'], testTimeout: 30000, hookTimeout: 60000 },
});
