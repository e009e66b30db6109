import { describe, expect, it } from 'vitest';
import type { Cell, CellResult } from '../../utils/domain/sweep';
import { countSlack, saysCrowded, siteTotalTrust, TRUSTED_AFTER } from '../../utils/sweep/site-total';

type Finished = Pick<Cell, 'status' | 'result'>;
const result = (organic: number, siteTotal: number | null | undefined, reason: CellResult['reason'] = 'end-of-list'): CellResult => ({
  reason,
  organic,
  newListings: 0,
  endOfList: reason === 'end-of-list',
  capHit: false,
  zoomedOut: false,
  insideShare: 1,
  ...(siteTotal !== undefined ? { siteTotal } : {}),
});
const done = (organic: number, siteTotal: number | null | undefined, reason?: CellResult['reason']): Finished => ({
  status: 'done',
  result: result(organic, siteTotal, reason),
});

describe("believing a site's count of matches", () => {
  it('believes it only after enough complete lists held what their count said', () => {
    const honest = Array.from({ length: TRUSTED_AFTER }, (_, i) => done(40 + i, 40 + i));
    expect(siteTotalTrust(honest.slice(0, -1)).trusted).toBe(false);
    expect(siteTotalTrust(honest)).toEqual({ trusted: true, honest: TRUSTED_AFTER, overstated: 0 });
  });

  it('never believes a count once it claimed more than a complete list held', () => {
    const cells = [...Array.from({ length: 10 }, () => done(50, 50)), done(50, 50 + countSlack(50) + 1)];
    expect(siteTotalTrust(cells)).toEqual({ trusted: false, honest: 10, overstated: 1 });
    // Within the slack (a card shown but not read) it is still honest.
    expect(siteTotalTrust([...Array.from({ length: 3 }, () => done(50, 50)), done(50, 50 + countSlack(50))]).trusted).toBe(true);
  });

  it('learns only from lists that ended by themselves and said a count', () => {
    const noEvidence: Finished[] = [
      done(40, null),
      done(40, undefined),
      done(0, 0, 'no-results'),
      done(40, 5000, 'audit'),
      { status: 'split', result: { ...result(300, 5000), reason: 'cap-hit' } },
      { status: 'pending', result: null },
    ];
    expect(siteTotalTrust(noEvidence)).toEqual({ trusted: false, honest: 0, overstated: 0 });
  });

  it('says crowded only for a number at or over the mark', () => {
    expect(saysCrowded(245, 245)).toBe(true);
    expect(saysCrowded(244, 245)).toBe(false);
    expect(saysCrowded(null, 245)).toBe(false);
    expect(saysCrowded(undefined, 245)).toBe(false);
  });
});
