// Latency against corpus size, one line per library, as an SVG (log-log axes),
// from the JSON files `npm run bench -- --json FILE` writes. Synthetic
// corpora only: the same generator at every size, so sizes compare.
//
//   node bench/chart.mjs [--workload asYouType] [--out bench/latency.svg] results.json [more.json ...]
import { readFileSync, writeFileSync } from 'node:fs';

const COLORS = ['#d9480f', '#868e96', '#1971c2', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599'];
const W = 760, H = 440, M = { left: 70, right: 170, top: 40, bottom: 55 };

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ workload: string, out: string, files: string[] }} */
  const o = { workload: 'asYouType', out: new URL('latency.svg', import.meta.url).pathname, files: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--workload') o.workload = argv[++i];
    else if (argv[i] === '--out') o.out = argv[++i];
    else o.files.push(argv[i]);
  }
  if (o.files.length === 0) throw new Error('usage: node bench/chart.mjs [--workload KEY] [--out FILE] results.json ...');
  return o;
}

/** @typedef {Map<string, [records: number, p50: number][]>} Series */

/**
 * { library → [[records, p50 ms], ...] } over every synthetic corpus of every file.
 * @param {string[]} files
 * @param {string} workload
 * @returns {Series}
 */
function seriesOf(files, workload) {
  /** @type {Map<string, Map<number, number>>} */
  const series = new Map();
  for (const file of files) {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    for (const r of doc.results ?? []) {
      if (!r.dataset.startsWith('synthetic-') || !r.libraries) continue;
      for (const l of r.libraries) {
        const p50 = l.workloads?.[workload]?.p50;
        if (!Number.isFinite(p50)) continue;
        if (!series.has(l.library)) series.set(l.library, new Map());
        series.get(l.library)?.set(r.records, p50);
      }
    }
  }
  return new Map([...series].map(([name, points]) => [name, [...points].sort((a, b) => a[0] - b[0])]));
}

/** @type {(lo: number, hi: number) => number[]} */
const decades = (lo, hi) => {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
};
/** @type {(v: number) => string} */
const label = (v) => (v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : String(v));
/** @type {(s: string) => string} */
const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * @param {Series} series
 * @param {string} title
 */
export function chart(series, title) {
  const points = [...series.values()].flat();
  const xs = decades(Math.min(...points.map((p) => p[0])), Math.max(...points.map((p) => p[0])));
  const ys = decades(Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[1])));
  const [x0, x1, y0, y1] = [Math.log10(xs[0]), Math.log10(xs[xs.length - 1]), Math.log10(ys[0]), Math.log10(ys[ys.length - 1])];
  /** @type {(v: number) => number} */
  const px = (v) => M.left + ((Math.log10(v) - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  /** @type {(v: number) => number} */
  const py = (v) => H - M.bottom - ((Math.log10(v) - y0) / (y1 - y0 || 1)) * (H - M.top - M.bottom);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`];
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${M.left}" y="22" font-size="14" font-weight="bold">${escape(title)}</text>`);
  for (const x of xs) {
    out.push(`<line x1="${px(x)}" y1="${M.top}" x2="${px(x)}" y2="${H - M.bottom}" stroke="#e9ecef"/>`);
    out.push(`<text x="${px(x)}" y="${H - M.bottom + 18}" text-anchor="middle">${label(x)}</text>`);
  }
  for (const y of ys) {
    out.push(`<line x1="${M.left}" y1="${py(y)}" x2="${W - M.right}" y2="${py(y)}" stroke="#e9ecef"/>`);
    out.push(`<text x="${M.left - 8}" y="${py(y) + 4}" text-anchor="end">${y} ms</text>`);
  }
  out.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 15}" text-anchor="middle">records (synthetic corpus)</text>`);
  [...series].forEach(([name, pts], i) => {
    const color = COLORS[i % COLORS.length];
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`);
    for (const [x, y] of pts) out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3.5" fill="${color}"><title>${escape(name)}: ${y.toFixed(3)} ms at ${label(x)}</title></circle>`);
    const ly = M.top + 10 + i * 20;
    out.push(`<line x1="${W - M.right + 15}" y1="${ly}" x2="${W - M.right + 35}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    out.push(`<text x="${W - M.right + 40}" y="${ly + 4}">${escape(name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

const opts = parseArgs(process.argv.slice(2));
const series = seriesOf(opts.files, opts.workload);
if (series.size === 0) throw new Error('no synthetic corpus with that workload in the files given');
writeFileSync(opts.out, chart(series, `${opts.workload} query latency, p50 (log-log)`));
console.log(`wrote ${opts.out} (${[...series.keys()].join(', ')})`);
