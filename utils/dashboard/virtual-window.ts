/**
 * Which rows of a fixed-row-height list are in the DOM: the ones in view plus `overscan` on
 * each side, so a fast scroll shows rows rather than blank space before the next render.
 */
export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  count: number;
  overscan: number;
}

export interface RowWindow {
  /** First row rendered. */
  first: number;
  /** One past the last row rendered (slice end); equals `first` when nothing is rendered. */
  end: number;
  /** Height of the space above the first rendered row. */
  padTop: number;
  /** Height of the space below the last rendered row. */
  padBottom: number;
  totalHeight: number;
}

export function rowWindow(input: WindowInput): RowWindow {
  const { rowHeight, count } = input;
  if (!(rowHeight > 0)) throw new RangeError('The row height must be a positive number of pixels.');
  const overscan = Math.max(0, Math.floor(input.overscan));
  const total = Math.max(0, Math.floor(count));
  const totalHeight = total * rowHeight;
  // The browser may report a scroll beyond the content for a moment after rows were filtered away.
  const scrollTop = Math.min(Math.max(0, input.scrollTop), Math.max(0, totalHeight - 1));
  const viewport = Math.max(0, input.viewportHeight);
  const firstVisible = Math.floor(scrollTop / rowHeight);
  const endVisible = Math.ceil((scrollTop + viewport) / rowHeight);
  const first = Math.min(total, Math.max(0, firstVisible - overscan));
  const end = Math.min(total, Math.max(first, endVisible + overscan));
  return { first, end, padTop: first * rowHeight, padBottom: (total - end) * rowHeight, totalHeight };
}
