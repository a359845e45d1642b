// The comparison as a table (one per corpus), the issue's targets checked
// against it, and the sanity checks the smoke run fails on.
import { WORKLOADS } from './compare.mjs';
import { mb, ms, table } from './format.mjs';

/**
 * @typedef {import('./compare.mjs').Comparison} Comparison
 * @typedef {import('./compare.mjs').LibraryRow} LibraryRow
 * @typedef {import('./compare.mjs').Timing} Timing
 * @typedef {import('./compare.mjs').WorkloadKey} WorkloadKey
 */

const LANTERN = 'Lantern';
const CORE = 'Lantern core';

/** A peer's figure over Lantern's (API) on the same row: "×4.2". @type {(value: number, lantern: number) => string} */
const ratio = (value, lantern) => (Number.isFinite(value) && Number.isFinite(lantern) && lantern > 0 ? ` ×${fmtRatio(value / lantern)}` : '');
/** @type {(x: number) => string} */
const fmtRatio = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
/** @type {(x: number) => string} */
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '-');
/** @type {(x: number) => string} */
const rate = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '-');

/**
 * A row of the table: label, the row's value (or the reason it has none), its format.
 * @typedef {[label: string, get: (l: LibraryRow) => number | string | undefined, fmt: (x: number) => string]} Metric
 */

/**
 * Rows of [label, value(row) or reason string, formatter, compare to Lantern?].
 * @returns {Metric[]}
 */
function metricRows() {
  /** @type {Metric[]} */
  const rows = [
    ['build (ms)', (l) => l.buildMs, ms],
    ['memory (MB)', (l) => l.memoryBytes, (x) => mb(x).replace(' MB', '')],
    ['memory, queried (MB)', (l) => l.memoryQueriedBytes, (x) => mb(x).replace(' MB', '')],
    ['snapshot (MB)', (l) => (l.can.snapshot === true ? l.snapshotBytes : l.can.snapshot), (x) => mb(x).replace(' MB', '')],
    ['snapshot load (ms)', (l) => (l.can.snapshot === true ? l.loadMs : l.can.snapshot), ms],
  ];
  for (const w of WORKLOADS) {
    for (const stat of /** @type {const} */ (['p50', 'p99', 'max'])) {
      rows.push([`${w.label} ${stat} (ms)`, (l) => {
        const x = l.workloads[w.key];
        return x?.unsupported ?? x?.[stat];
      }, ms]);
    }
  }
  rows.push(['queries/s, 2 workers', (l) => l.qps, rate]);
  rows.push(['recall@10, 1 typo', (l) => l.recall?.typo1, pct]);
  rows.push(['recall@10, 2 typos', (l) => l.recall?.typo2, pct]);
  return rows;
}

/** @param {Comparison} r */
export function reportComparison(r) {
  const libs = r.libraries;
  const lantern = libs.find((l) => l.library === LANTERN);
  const out = [];
  out.push(`   ${r.records.toLocaleString('en')} records, JSON ${mb(r.jsonBytes)}; queries ${JSON.stringify(r.queries)}`);
  const rows = metricRows().map(([label, get, fmt]) => {
    const base = lantern ? get(lantern) : NaN;
    return [label, ...libs.map((l) => {
      if (l.library === CORE && !(label.includes('p50') || label.includes('p99') || label.includes('max'))) return '';
      const v = get(l);
      if (typeof v === 'string') return v;
      if (v === undefined || v === null || Number.isNaN(v)) return '-';
      const compare = l.library !== LANTERN && l.library !== CORE && typeof base === 'number' && !label.startsWith('recall');
      return fmt(v) + (compare ? ratio(v, base) : '');
    })];
  });
  out.push(table(['', ...libs.map((l) => `${l.library}${l.version ? ` ${l.version}` : ''}`)], rows, ['l', ...libs.map(() => 'r')]));
  out.push('   ×N: the peer\'s figure divided by Lantern\'s (API) on the same row, same process.');
  const targets = checkTargets(r);
  if (targets.length) {
    out.push('');
    out.push(table(['target', 'measured', ''], targets.map((t) => [t.target, t.measured, t.met ? 'met' : 'NOT MET']), ['l', 'l', 'l']));
  }
  return out.join('\n');
}

/**
 * A workload's timing on a row that has one (Lantern's, its core's).
 * @param {LibraryRow} row
 * @param {WorkloadKey} key
 * @returns {Timing}
 */
function timed(row, key) {
  const x = row.workloads[key];
  if (!x || x.unsupported !== undefined) throw new Error(`${row.library}: ${key} was not timed`);
  return x;
}

/**
 * The issue's targets (#8) that this corpus can check.
 * @param {Comparison} r
 */
export function checkTargets(r) {
  const libs = r.libraries;
  const lantern = libs.find((l) => l.library === LANTERN);
  const core = libs.find((l) => l.library === CORE);
  if (!lantern || !core) return [];
  /** @type {{ target: string, measured: string, met: boolean }[]} */
  const out = [];
  /** @type {(target: string, measured: string, met: boolean) => unknown} */
  const add = (target, measured, met) => out.push({ target, measured, met });
  const typing = timed(core, 'asYouType');
  const apiTyping = timed(lantern, 'asYouType');
  /** @type {(l: LibraryRow) => number} */
  const typingP50 = (l) => l.workloads.asYouType?.p50 ?? NaN;
  if (r.records >= 1e6) {
    add('1M: as-you-type p50 ≤ 1 ms (core)', `${ms(typing.p50)} ms (API ${ms(apiTyping.p50)})`, typing.p50 <= 1);
    return out;
  }
  if (r.records < 1e5) return out;
  add('as-you-type p50 ≤ 0.25 ms (core)', `${ms(typing.p50)} ms (API ${ms(apiTyping.p50)})`, typing.p50 <= 0.25);
  add('as-you-type p99 ≤ 2 ms (core)', `${ms(typing.p99)} ms (API ${ms(apiTyping.p99)})`, typing.p99 <= 2);
  const fuzzyPeers = libs.filter((l) => l.library !== LANTERN && l.library !== CORE && l.can.typo === true && l.workloads.asYouType?.p50);
  if (fuzzyPeers.length) {
    const fastest = fuzzyPeers.reduce((a, b) => (typingP50(b) < typingP50(a) ? b : a));
    const x = typingP50(fastest) / apiTyping.p50;
    add('as-you-type ≥ 3× faster than the fastest fuzzy peer (API)', `${fmtRatio(x)}× (${fastest.library} ${ms(typingP50(fastest))} ms)`, x >= 3);
  }
  const mini = libs.find((l) => l.library === 'MiniSearch');
  if (mini?.buildMs !== undefined && lantern.buildMs !== undefined) {
    const x = mini.buildMs / lantern.buildMs;
    add('indexing ≥ 2× faster than MiniSearch', `${fmtRatio(x)}× (${ms(lantern.buildMs)} vs ${ms(mini.buildMs)} ms)`, x >= 2);
  }
  const memory = lantern.memoryBytes ?? NaN;
  const queried = lantern.memoryQueriedBytes ?? NaN;
  const queriedText = Number.isFinite(queried) ? `; queried ${(queried / r.jsonBytes).toFixed(2)}×` : '';
  add('index memory ≤ raw JSON', `${(memory / r.jsonBytes).toFixed(2)}× (${mb(memory)} / ${mb(r.jsonBytes)})${queriedText}`, memory <= r.jsonBytes);
  for (const key of /** @type {const} */ (['typo1', 'typo2'])) {
    /** @type {(l: LibraryRow) => number} */
    const recall = (l) => l.recall?.[key] ?? NaN;
    const best = libs.filter((l) => l.library !== LANTERN && l.library !== CORE && Number.isFinite(recall(l)))
      .reduce((/** @type {LibraryRow | null} */ a, b) => (!a || recall(b) > recall(a) ? b : a), null);
    if (best) add(`recall@10 ${key === 'typo1' ? '1 typo' : '2 typos'} ≥ every peer's`, `${pct(recall(lantern))} (best peer ${best.library} ${pct(recall(best))})`, recall(lantern) >= recall(best));
  }
  return out;
}

/**
 * What a smoke run must not show: a library that measured nothing, Lantern without hits, a snapshot that answers differently.
 * @param {Comparison[]} results
 */
export function smokeProblems(results) {
  /** @type {string[]} */
  const problems = [];
  for (const r of results) {
    for (const l of r.libraries) {
      const where = `${r.dataset} ${l.library}`;
      if (l.library !== CORE && !((l.buildMs ?? NaN) > 0)) problems.push(`${where}: no build time`);
      if (l.snapshotSame === false) problems.push(`${where}: reloaded snapshot answers differently`);
      if (l.qps !== undefined && !(l.qps > 0)) problems.push(`${where}: no throughput`);
      for (const w of WORKLOADS) {
        const x = l.workloads[w.key];
        if (!x) problems.push(`${where} ${w.label}: missing`);
        else if (x.unsupported === undefined && !(x.samples > 0)) problems.push(`${where} ${w.label}: no samples`);
      }
      if (l.library === LANTERN) {
        if (!((l.workloads.exact?.meanCount ?? NaN) > 0)) problems.push(`${where}: exact words found nothing`);
        if (!((l.recall?.typo1 ?? NaN) > 0)) problems.push(`${where}: 1-typo queries found none of their targets`);
      }
    }
  }
  return problems;
}
