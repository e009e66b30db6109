/** The numbers every section reports, and how they print: medians, percentiles, rounding, tables. */

/** The nearest-rank percentile p (0–1) of a sample. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function round(x: number, digits = 2): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

/** A timing sample's nearest-rank median and 95th percentile, to the microsecond when in ms. */
export function medianAndP95(values: readonly number[]): { median: number; p95: number } {
  return { median: round(percentile(values, 0.5), 3), p95: round(percentile(values, 0.95), 3) };
}

/** A share as a percentage with two decimals. */
export const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

/** "median (min–max, n=…)" for the log. */
export function spread(values: readonly number[], unit: string, digits = 2): string {
  return `${median(values).toFixed(digits)} ${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}, n=${values.length})`;
}

/**
 * A fixed-width table's row printer: the first `leftAligned` columns are text (padded on the
 * right), the others figures (padded on the left), one space apart, each line after `indent`.
 */
export function tableRows(
  cols: readonly (readonly [string, number])[],
  leftAligned: number,
  indent = '',
): { header: string; row: (cells: readonly string[]) => string } {
  const row = (cells: readonly string[]) => indent + cells.map((c, i) => (i < leftAligned ? c.padEnd(cols[i]![1]) : c.padStart(cols[i]![1]))).join(' ');
  return { header: row(cols.map(([c]) => c)), row };
}
