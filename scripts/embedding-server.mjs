// Serves the tests' embedding server (test/support/embedding-server.ts) on
// its own, to try a `rest` embedder without a model: deterministic
// feature-hashed vectors over the OpenAI-compatible embeddings API.
//
//   node scripts/embedding-server.mjs [--port 8088] [--dimensions 32] [--api-key KEY]
//
// The server is TypeScript; esbuild (a dev dependency) compiles it here.
import { build } from 'esbuild';
import { parseArgs } from 'node:util';

const usage = 'usage: node scripts/embedding-server.mjs [--port 8088] [--dimensions 32] [--api-key KEY]';
/** @type {{ port: string, dimensions: string, 'api-key'?: string }} */
let options;
try {
  options = /** @type {any} */ (parseArgs({
    options: { port: { type: 'string', default: '8088' }, dimensions: { type: 'string', default: '32' }, 'api-key': { type: 'string' } },
  }).values);
} catch (error) {
  console.error(`${/** @type {Error} */ (error).message}\n${usage}`);
  process.exit(2);
}
const port = Number(options.port);
const dimensions = Number(options.dimensions);
if (!Number.isInteger(port) || port < 0 || port > 65535 || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096) {
  console.error(`--port takes 0 to 65535 and --dimensions 1 to 4096\n${usage}`);
  process.exit(2);
}

const bundle = await build({
  entryPoints: [new URL('../test/support/embedding-server.ts', import.meta.url).pathname],
  bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning',
});
/** @type {typeof import('../test/support/embedding-server.ts')} */
const { EmbeddingServer } = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);

try {
  const server = await EmbeddingServer.start({ port, dimensions, apiKey: options['api-key'] });
  console.log(`Embedding server on ${server.url} (${dimensions} dimensions${options['api-key'] ? ', API key required' : ''})`);
  console.log(`Embedder setting: ${JSON.stringify({ source: 'rest', url: server.url, dimensions })}`);
} catch (error) {
  console.error(`Cannot listen on port ${port}: ${/** @type {Error} */ (error).message} (try --port 0 for a free one)`);
  process.exit(1);
}
