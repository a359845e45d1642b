// What Lantern takes from its platform, in a browser (and any runtime
// without Node's modules): nothing beyond the web platform. The Node build
// (scripts/build.mjs) and the tests (vitest.config.ts) swap in platform.node.ts, so
// no browser bundle reaches a `node:` module.
import type { Platform } from './types.js';

export const platform: Platform = {
  zlib: async () => undefined,
  parentPort: async () => undefined,
  // no worker script to name: a bundler would look for it at build time (Vite warns it is missing)
  proofWorker: undefined,
  runWorker: async () => undefined,
  writeUtf16: undefined,
};
