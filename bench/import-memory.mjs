// Peak memory of `lantern import` against the size of the file it streams
// (issue #19: independent of the file's size). For each size, a synthetic
// NDJSON file and a JSON array of the same records are read alone
// (`--dry-run`: the reader's own memory), imported into a new data
// directory, then the store is opened alone (`lantern search`), and imported
// again with `--url` into a running `lantern serve` (the importing process
// reads and sends; the server indexes).
//
//   node bench/import-memory.mjs [--sizes 100000,1000000]
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { synthetic } from './corpus.mjs';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100000,1000000' } } });
const PRELOAD = new URL('./support/max-rss.cjs', import.meta.url).pathname;

/**
 * Runs the CLI; its peak RSS in MB and its wall time.
 * @param {string[]} args
 */
function cli(args) {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['-r', PRELOAD, 'dist/cli.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`lantern ${args.join(' ')}: ${r.stderr}`);
  const rss = /max-rss-kb (\d+)/.exec(r.stderr);
  if (!rss) throw new Error(`lantern ${args.join(' ')}: no max-rss-kb line from ${PRELOAD}`);
  const kb = Number(rss[1]);
  return { mb: kb / 1024, seconds: (performance.now() - started) / 1000, stdout: r.stdout };
}

/**
 * Starts `lantern serve` on a new data directory; its URL and a stop function.
 * @param {string} data
 */
async function serve(data) {
  const child = spawn(process.execPath, ['dist/cli.js', 'serve', '--port', '0', '--data', data], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  /** @type {string} */
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`lantern serve exited: ${out}`)));
  });
  return { url, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }) };
}

/**
 * @param {string} path
 * @param {import('./corpus.mjs').BenchRecord[]} records
 * @param {boolean} asArray
 */
async function writeFile(path, records, asArray) {
  const out = createWriteStream(path);
  if (asArray) out.write('[');
  for (let i = 0; i < records.length; i++) {
    const text = (asArray && i > 0 ? ',' : '') + JSON.stringify(records[i]) + (asArray ? '' : '\n');
    if (!out.write(text)) await once(out, 'drain');
  }
  if (asArray) out.write(']');
  out.end();
  await once(out, 'finish');
}

const dir = mkdtempSync(join(tmpdir(), 'lantern-import-mem-'));
try {
  console.log('records     format  file MB  dry-run peak MB  import peak MB  store alone MB   s  --url peak MB   s');
  for (const size of values.sizes.split(',').map(Number)) {
    const { records } = synthetic(size);
    for (const format of ['ndjson', 'json']) {
      const file = join(dir, `records.${format}`);
      await writeFile(file, records, format === 'json');
      const data = join(dir, `data-${format}-${size}`);
      const read = cli(['import', 'bench', file, '--dry-run']);
      const imported = cli(['import', 'bench', file, '--data', data]);
      const alone = cli(['search', 'bench', 'the', '--data', data, '--hits', '1']);
      rmSync(data, { recursive: true, force: true });
      const server = await serve(data);
      let sent;
      try {
        sent = cli(['import', 'bench', file, '--url', server.url]);
      } finally {
        await server.stop();
      }
      console.log(`${String(size).padStart(9)}  ${format.padStart(7)}  ${(statSync(file).size / 1e6).toFixed(0).padStart(7)}  ${read.mb.toFixed(0).padStart(15)}  ${imported.mb.toFixed(0).padStart(14)}  ${alone.mb.toFixed(0).padStart(14)}  ${imported.seconds.toFixed(0).padStart(3)}  ${sent.mb.toFixed(0).padStart(13)}  ${sent.seconds.toFixed(0).padStart(3)}`);
      rmSync(data, { recursive: true, force: true });
      rmSync(file);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
