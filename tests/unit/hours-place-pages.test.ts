// @vitest-environment happy-dom
/**
 * Hours read from the Kakao and Naver place pages (utils/providers/kakao/place-page.ts,
 * naver/apollo.ts) where a second skeptical review made the first readers fail: a facts list
 * whose other rows were taken for hours, a review under the same block deciding a day, a status
 * row before the week, a break the page gives left out of the week.
 */
import { describe, expect, it } from 'vitest';
import { openingHoursText } from '../../utils/export/columns';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import { readPlacePage } from '../../utils/providers/kakao/place-page';
import { placeFromDetailState } from '../../utils/providers/naver/apollo';
import { naverPlaceOf } from '../replica/naver/data';
import { detailApolloState } from '../replica/naver/pages';
import { createWorld } from '../replica/world';

const page = (body: string) =>
  new DOMParser().parseFromString(
    `<html><head><meta property="og:title" content="가게 | 카카오맵"></head><body><h3 class="tit_place">가게</h3>${body}</body></html>`,
    'text/html',
  );
const URL1 = 'https://place.map.kakao.com/12345';
const week = (body: string) => openingHoursText(listingFromPlace(readPlacePage(page(body), URL1)!, 'panel').openingHours);

describe('Kakao place page hours', () => {
  it('a facts list: only the 영업시간 row, never the address or the phone', () => {
    const d = page('<dl><dt>주소</dt><dd>서울 중구 세종대로 110</dd><dt>영업시간</dt><dd>매일 10:00 ~ 22:00</dd><dt>전화</dt><dd>02-120-1234</dd></dl>');
    expect(readPlacePage(d, URL1)!.hoursText).toBe('매일 10:00 ~ 22:00');
  });

  it('a review after the block never decides a day', () => {
    expect(
      week(
        '<div class="home"><strong>영업시간</strong><ul><li>매일 11:00 ~ 21:00</li></ul><strong>후기</strong><ul><li><p>매주 월요일 휴무</p></li></ul></div>',
      ),
    ).toBe('Mo 11:00-21:00; Tu 11:00-21:00; We 11:00-21:00; Th 11:00-21:00; Fr 11:00-21:00; Sa 11:00-21:00; Su 11:00-21:00');
  });

  it('a status row labelled 영업시간 before the week: the week is read', () => {
    expect(
      week(
        '<div class="summary"><span>영업시간</span><p>영업 중</p></div><div class="section"><strong>영업시간</strong><ul><li>매일 11:00 ~ 21:00</li></ul></div>',
      ),
    ).toMatch(/^Mo 11:00-21:00;/);
  });
});

describe('Naver place page hours', () => {
  it('a break the page gives is cut out of the day; one it gives in a form not known leaves the day unknown', () => {
    const world = createWorld({ seed: 17, places: 50, centre: { lat: 37.57, lng: 126.98 }, radiusKm: 2 });
    const p = naverPlaceOf(world.places.find((x) => x.hours !== null && x.hours !== 'open24h')!);
    const state = detailApolloState(p) as Record<string, Record<string, Record<string, { businessHours: Record<string, unknown>[] }[]>>>;
    const root = state.ROOT_QUERY!;
    const detail = root[Object.keys(root).find((x) => x.startsWith('placeDetail('))!]!;
    const days = detail['newBusinessHours({"format":"restaurant"})']![0]!.businessHours;
    for (const d of days) {
      d.businessHours = { __typename: 'StartEndTime', start: '11:00', end: '22:00' };
      d.breakHours = [{ __typename: 'StartEndTime', start: '15:00', end: '17:00' }];
    }
    days[0]!.breakHours = [{ from: '15:00' }];
    const l = listingFromPlace(placeFromDetailState(state as never, p.id)!, 'page-data');
    // The replica's week starts on Wednesday (as the capture's): Wednesday's break is unreadable.
    expect(openingHoursText(l.openingHours)).toBe(
      'Mo 11:00-15:00,17:00-22:00; Tu 11:00-15:00,17:00-22:00; Th 11:00-15:00,17:00-22:00; Fr 11:00-15:00,17:00-22:00; Sa 11:00-15:00,17:00-22:00; Su 11:00-15:00,17:00-22:00; We unknown',
    );
  });
});
