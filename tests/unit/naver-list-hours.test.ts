/**
 * Naver's list gives each place's week in words (`businessHours`, the 2025 list capture): the
 * place's listing keeps those words as `hours` and the week read from them as `openingHours`, and
 * a day the words do not give is not in it. Read by the product's own list-item reader from the
 * replica's own list items, for every wording the replica uses, against the world's hours.
 */
import { describe, expect, it } from 'vitest';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import { placeFromDetailState, placeFromListItem } from '../../utils/providers/naver/apollo';
import { existsSync, readFileSync } from 'node:fs';
import { openingHoursText } from '../../utils/export/columns';
import { naverPlaceOf } from '../replica/naver/data';
import { detailApolloState, listItemState, naverHoursText } from '../replica/naver/pages';

const CAPTURE = '../shared/real-pages/naver/naver_pcmap_place_apollo-state_1446535451_ko_2026-05.json';
import { createWorld } from '../replica/world';

const world = createWorld({ seed: 17, places: 600, centre: { lat: 37.57, lng: 126.98 }, radiusKm: 2 });

describe('Naver list hours', () => {
  it('every wording the list uses reads as the world\u2019s week; a place without hours has none', () => {
    const forms = new Set<string>();
    let withHours = 0;
    for (const place of world.places.slice(0, 300)) {
      const p = naverPlaceOf(place);
      const read = placeFromListItem(listItemState(p, false, 'RestaurantListSummary'));
      if (typeof read === 'string') throw new Error(read);
      const l = listingFromPlace(read, 'card');
      if (place.hours === null) {
        expect(l.hours ?? null, p.id).toBeNull();
        expect(l.openingHours ?? null, p.id).toBeNull();
        continue;
      }
      withHours++;
      forms.add(naverHoursText(p).replace(/[\d:~]+/g, '#'));
      expect(l.hours, p.id).toBe(naverHoursText(p));
      const span =
        place.hours === 'open24h' ? '00:00-24:00' : `${String(place.hours.opens).padStart(2, '0')}:00-${String(place.hours.closes).padStart(2, '0')}:00`;
      expect(openingHoursText(l.openingHours), p.id).toBe(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => `${d} ${span}`).join('; '));
    }
    expect(withHours).toBeGreaterThan(50);
    expect(forms.size).toBe(3);
  });

  it('the status of the moment is not the week, and words it cannot read stay words', () => {
    const base = { id: '1234567', name: '하루국수', x: '126.98', y: '37.57' };
    const status = listingFromPlace(placeFromListItem({ ...base, businessHours: '영업 중' }) as never, 'card');
    expect(status.hours).toBe('영업 중');
    expect(status.openingHours ?? null).toBeNull();
    const partial = listingFromPlace(placeFromListItem({ ...base, businessHours: '월요일 휴무 | 화요일 11:00~21:00' }) as never, 'card');
    // The days the words do not give are unknown, never closed.
    expect(openingHoursText(partial.openingHours)).toBe('Mo off; Tu 11:00-21:00; We,Th,Fr,Sa,Su unknown');
    // A place once marked closed for now, read again with its week: open again (closed cleared).
    const closedNow = listingFromPlace(placeFromListItem({ ...base, businessHours: '임시휴업' }) as never, 'card');
    expect(closedNow.closed).toBe('temporarily');
    expect(partial.closed).toBeNull();
    const hostile = listingFromPlace(placeFromListItem({ ...base, businessHours: '=HYPERLINK("x")' }) as never, 'card');
    expect(hostile.hours).toBe('=HYPERLINK("x")');
    expect(hostile.openingHours ?? null).toBeNull();
    expect(hostile.closed).toBeUndefined();
    // A closed word the reader did not understand does not clear a closed mark (a second review found it did).
    const works = listingFromPlace(placeFromListItem({ ...base, businessHours: '매일 10:00~22:00 | 내부 공사로 임시휴업' }) as never, 'card');
    expect(works.closed).toBeUndefined();
  });
});

describe('Naver place page hours', () => {
  it('the week the place page\u2019s state gives (the capture\u2019s shape) reads as the world\u2019s; the real capture\u2019s reads as its own days', () => {
    let withHours = 0;
    for (const place of world.places.slice(0, 200)) {
      const p = naverPlaceOf(place);
      const read = placeFromDetailState(detailApolloState(p) as never, p.id);
      if (!read) throw new Error(p.id);
      const l = listingFromPlace(read, 'page-data');
      if (place.hours === null) {
        expect(l.openingHours ?? null, p.id).toBeNull();
        continue;
      }
      withHours++;
      const span =
        place.hours === 'open24h' ? '00:00-24:00' : `${String(place.hours.opens).padStart(2, '0')}:00-${String(place.hours.closes).padStart(2, '0')}:00`;
      expect(openingHoursText(l.openingHours), p.id).toBe(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => `${d} ${span}`).join('; '));
    }
    expect(withHours).toBeGreaterThan(20);
  });

  it.skipIf(!existsSync(CAPTURE))('the 2026 capture: six days 16:00–24:00, its Sunday (a monthly rule) unknown', () => {
    const state = JSON.parse(readFileSync(CAPTURE, 'utf8'));
    const l = listingFromPlace(placeFromDetailState(state, '1446535451')!, 'page-data');
    expect(openingHoursText(l.openingHours)).toBe('Mo 16:00-24:00; Tu 16:00-24:00; We 16:00-24:00; Th 16:00-24:00; Fr 16:00-24:00; Sa 16:00-24:00; Su unknown');
  });
});
