import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../scripts/locales';
import { sweepProgress } from '../../utils/sweep/progress';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import type { Sweep } from '../../utils/domain/sweep';

function sweep(over: Partial<Sweep>): Sweep {
  return {
    id: 's1',
    createdAt: 0,
    area: { kind: 'bbox', bbox: { south: 37.5, west: 126.9, north: 37.6, east: 127 } } as Sweep['area'],
    keywords: ['cafe'],
    settings: DEFAULT_SETTINGS,
    status: 'paused',
    pauseReason: null,
    problem: null,
    origin: null,
    counters: {
      cellsKnown: 4,
      cellsDone: 0,
      cellsSplit: 0,
      cellsSaturated: 0,
      cellsQuarantined: 0,
      cellsOutside: 0,
      listingsNew: 0,
      listingsSeen: 0,
      pageLoads: 1,
      errors: 0,
    },
    lastNewListingAt: null,
    updatedAt: 0,
    ...over,
  };
}

describe('popup warnings', () => {
  it('a sweep paused for the signed-out limited view says so, in a message both languages have', () => {
    const problem = { kind: 'limited' as const, message: 'Sign in to Google Maps in this browser, then press Resume.', at: 1 };
    const w = sweepProgress(sweep({ pauseReason: 'signed-out', problem }), 10).warnings;
    expect(w).toEqual([{ kind: 'signed_out', message: problem.message }]);
    // SweepStatus shows `warning_${kind}`: the key must exist, and tell the user to sign in.
    const [en, ko] = MESSAGES[`warning_${w[0]!.kind}`]!;
    expect(en).toMatch(/Sign in to Google Maps in this browser, then press Resume/);
    expect(ko).toMatch(/로그인/);
  });

  it('a sweep the team database paused says so with the reason the gate gave (issue 26)', () => {
    const problem = {
      kind: 'internal' as const,
      message: 'The server refused this user name and password. The sweep is paused; check the team database in the options, then press Resume.',
      at: 1,
    };
    const w = sweepProgress(sweep({ pauseReason: 'team', problem }), 10).warnings;
    expect(w).toEqual([{ kind: 'team', message: problem.message }]);
    // SweepStatus shows t('warning_team', message): both languages carry the reason.
    for (const text of MESSAGES.warning_team!) expect(text).toContain('$1');
    expect(MESSAGES.notifyTeam![0]).toMatch(/^Sweep paused: the team database/);
    // Paused for another reason, or not paused: no team warning.
    expect(sweepProgress(sweep({ pauseReason: 'captcha', problem }), 10).warnings.map((x) => x.kind)).toEqual(['captcha']);
  });

  it('a sweep paused by the user shows no such warning', () => {
    expect(sweepProgress(sweep({ pauseReason: 'user' }), 10).warnings).toEqual([]);
  });
});
