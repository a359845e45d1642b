// Number formats and plain-text tables for the benchmark's reports.

/** @type {(bytes: number) => string} */
export const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
/** @type {(x: number) => string} */
export const ms = (x) => (Number.isNaN(x) ? '-' : x < 1 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(0));

/**
 * @param {string[]} headers
 * @param {unknown[][]} rows
 * @param {string[]} align 'l' left-aligns a column, anything else ('r') right-aligns it
 * @returns {string}
 */
export function table(headers, rows, align) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  /** @type {(cells: unknown[]) => string} */
  const line = (cells) => cells.map((c, i) => (align[i] === 'l' ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
