import { describe, expect, it } from 'vitest';
import { rowWindow } from '../../utils/dashboard/virtual-window';
import { createRng } from '../replica/prng';

describe('virtual window', () => {
  const base = { rowHeight: 20, count: 1000, overscan: 5, viewportHeight: 100 };

  it.each([
    // scrollTop → rows 0..4 visible (100 px / 20 px), plus 5 below.
    { scrollTop: 0, first: 0, end: 10 },
    // Rows 50..54 visible; 5 above and below.
    { scrollTop: 1000, first: 45, end: 60 },
    // Half a row scrolled: rows 50..55 partly visible.
    { scrollTop: 1010, first: 45, end: 61 },
    // The bottom: rows 995..999 visible, nothing to overscan below.
    { scrollTop: 19_900, first: 990, end: 1000 },
  ])('scrollTop $scrollTop renders rows $first…$end (hand-computed)', ({ scrollTop, first, end }) => {
    const w = rowWindow({ ...base, scrollTop });
    expect([w.first, w.end]).toEqual([first, end]);
    expect(w.padTop).toBe(first * 20);
    expect(w.padBottom).toBe((1000 - end) * 20);
    expect(w.totalHeight).toBe(20_000);
  });

  it('still renders the last rows when the browser reports a scroll past the end (list just got shorter)', () => {
    const w = rowWindow({ ...base, count: 30, scrollTop: 19_900 });
    expect(w.end).toBe(30);
    expect(w.first).toBeLessThan(30);
    expect(w.padTop + (w.end - w.first) * 20 + w.padBottom).toBe(600);
  });

  it('renders nothing for an empty list, and refuses a row height that is not positive', () => {
    expect(rowWindow({ ...base, count: 0, scrollTop: 500 })).toEqual({ first: 0, end: 0, padTop: 0, padBottom: 0, totalHeight: 0 });
    expect(() => rowWindow({ ...base, rowHeight: 0, scrollTop: 0 })).toThrow(/row height/);
    expect(() => rowWindow({ ...base, rowHeight: Number.NaN, scrollTop: 0 })).toThrow(/row height/);
  });

  it('always covers every row in view, with at most the view plus overscan in the DOM (seeded)', () => {
    const rng = createRng(99);
    for (let run = 0; run < 500; run++) {
      const rowHeight = rng.int(10, 60);
      const count = rng.int(0, 200_000);
      const viewportHeight = rng.int(0, 2000);
      const overscan = rng.int(0, 20);
      const scrollTop = rng.next() * Math.max(0, count * rowHeight - viewportHeight);
      const w = rowWindow({ scrollTop, viewportHeight, rowHeight, count, overscan });
      expect(w.first).toBeGreaterThanOrEqual(0);
      expect(w.end).toBeLessThanOrEqual(count);
      expect(w.first).toBeLessThanOrEqual(w.end);
      // Every row that intersects [scrollTop, scrollTop + viewport) is rendered.
      for (let i = Math.floor(scrollTop / rowHeight); i * rowHeight < scrollTop + viewportHeight && i < count; i++) {
        expect(i).toBeGreaterThanOrEqual(w.first);
        expect(i).toBeLessThan(w.end);
      }
      expect(w.end - w.first).toBeLessThanOrEqual(Math.ceil(viewportHeight / rowHeight) + 1 + 2 * overscan);
      expect(w.padTop + (w.end - w.first) * rowHeight + w.padBottom).toBe(count * rowHeight);
    }
  });
});
