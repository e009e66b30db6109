/**
 * The bench's recall on imperfect pages (scripts/bench/recall.ts) can fail: perfect pages over a
 * small area give recall 1, a page that hides places gives less and counts them as silent
 * misses, a card that is never read stops the sweep and its places count as reported. And the
 * keyword-restricted worlds the Naver and Kakao rows search answer exactly as the full worlds.
 */
import { describe, expect, it } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import { bboxToWcongRect } from '../../utils/geo/wcongnamul';
import { googleRecallRun, kakaoKeywordWorld, MAX_RESUMES, naverKeywordWorld, type GoogleImperfections } from '../../scripts/bench/recall';
import { REFERENCE_SWITCHES } from '../../scripts/bench/reference';
import { world } from '../helpers/sim-world';
import { kakaoWorld } from '../replica/kakao/places';
import { kakaoSearch } from '../replica/kakao/search';
import { adsFor, naverSearch } from '../replica/naver/search';
import { DEFAULT_NAVER_SWITCHES } from '../replica/naver/switches';

/** About 2.2 × 2.2 km of the sim world's crowded centre: a few hundred cafés, crowded cells split. */
const AREA = parseAreaText('37.555,126.965,37.575,126.99');
if (!AREA.ok) throw new Error('bad area');
const area = AREA.area;

const PERFECT: GoogleImperfections = { unreadableRate: 0, errorRate: 0, endAtCap: false, switches: REFERENCE_SWITCHES };

describe('recall on imperfect pages (bench)', () => {
  it('is 1 on perfect pages: every place of the ground truth stored, nothing missing', { timeout: 20_000 }, async () => {
    const r = await googleRecallRun({ world, area, keyword: 'cafe', seed: 1, imperfections: PERFECT });
    expect(r.places).toBeGreaterThan(200);
    expect(r.status).toBe('finished');
    expect(r.cells_split).toBeGreaterThan(0);
    expect([r.recall, r.found, r.missing_silent, r.missing_in_saturated, r.missing_in_quarantined, r.missing_in_open]).toEqual([1, r.places, 0, 0, 0, 0]);
    expect([r.failed_loads, r.unread_cards, r.stops]).toEqual([0, 0, 0]);
  });

  it('drops below 1 when the page hides places, and counts each one as a silent miss', { timeout: 20_000 }, async () => {
    // One place in 25 never shows, not even as a card: nothing on the page can reveal it.
    const hide = (key: string) => Number(BigInt(key.slice('google:'.length)) % 25n) === 0;
    const r = await googleRecallRun({ world, area, keyword: 'cafe', seed: 1, imperfections: { ...PERFECT, hide } });
    expect(r.status).toBe('finished');
    expect(r.recall).toBeLessThan(1);
    expect(r.places - r.found).toBeGreaterThan(0);
    expect(r.missing_silent).toBe(r.places - r.found);
    expect(r.silent_examples.length).toBeGreaterThan(0);
    expect(r.silent_examples.every((m) => !m.listed && m.cells.length > 0)).toBe(true);
  });

  it('a card never read stops the sweep, Resume after Resume, till its cell is quarantined: its places missing, reported, not silent', {
    timeout: 20_000,
  }, async () => {
    let target: string | null = null;
    const r = await googleRecallRun({
      world,
      area,
      keyword: 'cafe',
      seed: 1,
      imperfections: {
        ...PERFECT,
        // The first page's 5th card, on whichever view shows it: a card shape the extractor does not know.
        unreadableAlways: (_url, place, rank) => {
          if (rank === 4) target ??= place.cid;
          return place.cid === target;
        },
      },
    });
    expect(r.stops).toBeGreaterThan(0);
    expect(r.stops).toBeLessThanOrEqual(MAX_RESUMES);
    expect(r.stop_message).toMatch(/could not be read.*previous attempt/);
    // Crowded lists that showed it were split (judge.ts: their children list the same ground); the
    // cell whose complete list would have proven it failed until the same page showed it unread again.
    const attempts = r.stop_cells[0]!.failed_attempts;
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.slice(0, -1).every((a) => /^1 of \d+ result cards could not be read\.$/.test(a.what))).toBe(true);
    expect(attempts.at(-1)!.what).toMatch(/^1 of \d+ result cards could not be read\. The same happened on the previous attempt of this cell\.$/);
    expect(attempts.at(-1)!.url).toBe(attempts.at(-2)!.url);
    expect(r.recall).toBeLessThan(1);
    expect(r.cells_quarantined + (r.status === 'finished' ? 0 : 1)).toBeGreaterThan(0);
    expect(r.missing_in_quarantined + r.missing_in_open).toBeGreaterThan(0);
    expect(r.missing_silent).toBe(0);
    expect(r.missing_in_open + r.missing_in_saturated + r.missing_in_quarantined).toBe(r.places - r.found);
  });

  it('the keyword-restricted Naver and Kakao worlds answer as the full world', () => {
    const boxes = [
      { south: 37.55, west: 126.96, north: 37.57, east: 126.99 },
      { south: 37.562, west: 126.975, north: 37.566, east: 126.98 },
      { south: 37.5, west: 126.9, north: 37.6, east: 127.05 },
    ];
    for (const keyword of ['카페', '약국', 'cafe']) {
      const nw = naverKeywordWorld(world, keyword);
      expect(nw.places.length).toBeLessThan(world.places.length);
      const kw = kakaoWorld(world);
      const kk = kakaoKeywordWorld(kw, keyword);
      for (const bounds of boxes) {
        for (const boundsMode of ['strict', 'spill'] as const) {
          const input = { query: keyword, bounds, centre: null };
          const full = naverSearch(world, input, { ...DEFAULT_NAVER_SWITCHES, boundsMode });
          const cut = naverSearch(nw, input, { ...DEFAULT_NAVER_SWITCHES, boundsMode });
          expect(cut.results.map((p) => p.id)).toEqual(full.results.map((p) => p.id));
          expect(cut.matched).toBe(full.matched);
          const ads = { ads: 2, adsRepeatOrganic: false };
          expect(adsFor(nw, input, cut, ads).map((p) => p.id)).toEqual(adsFor(world, input, full, ads).map((p) => p.id));
        }
        const rect = bboxToWcongRect(bounds)!;
        for (const rectMode of ['exact', 'inset'] as const) {
          expect(kakaoSearch(kk, keyword, rect, { rectMode }).ranked.map((k) => k.confirmId)).toEqual(
            kakaoSearch(kw, keyword, rect, { rectMode }).ranked.map((k) => k.confirmId),
          );
        }
      }
    }
  });
});
