/** Navigation Timing's responseStatus (Chrome 109+); null where the browser does not give it. */
export function navigationStatus(perf: Performance): number | null {
  const entry = perf.getEntriesByType('navigation')[0] as (PerformanceEntry & { responseStatus?: number }) | undefined;
  return entry && typeof entry.responseStatus === 'number' && entry.responseStatus > 0 ? entry.responseStatus : null;
}
