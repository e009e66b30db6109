import type { MeasuredCanvas } from '../../coverage/geometry';

/**
 * The map canvas as this page lays it out, read in the content script (the isolated world sees
 * the same layout as the page, so no page script can forge it): the window's CSS size (the map
 * fills it; browser zoom changes it, which `tabs.Tab.width` does not show) and the right edge
 * of the results panel when one is on screen. The panel is the box around the results feed or
 * the place panel (`[role=main]`), anchored at the left edge.
 */
export function measureCanvas(win: Pick<Window, 'innerWidth' | 'innerHeight'> & { document: Document }): MeasuredCanvas | null {
  const width = win.innerWidth;
  const height = win.innerHeight;
  if (!(width > 0 && height > 0)) return null;
  let panelRight: number | null = null;
  for (const el of Array.from(win.document.querySelectorAll('[role=main]'))) {
    const r = el.getBoundingClientRect();
    // A panel starts at the left edge and leaves most of the map visible; anything else is not it.
    if (r.width > 0 && r.left <= 8 && r.right < width * 0.9) panelRight = Math.max(panelRight ?? 0, r.right);
  }
  return { width, height, panelRight };
}
