/**
 * What the Kakao replica answers for a search: pure, no I/O. Matching is the Google replica's
 * (tests/replica/search.ts queryMatcher: category terms in English and Korean, or the name), so
 * both replicas have the same ground truth; Kakao names are matched too (`스타벅스` finds the
 * Korean-named branches).
 *
 * Model (naver-kakao-notes B3, B4): with `rect` (msFlag=S) only places inside it; without, the
 * whole world around its centre. Ranked by prominence less distance from the rect's centre,
 * 15 per page, `place_totalcount` the true count, pages past the cap come back empty.
 */
import { haversineMetres } from '../../../utils/geo/distance';
import { bboxToWcongRect, type WcongRect, wcongnamulToWgs84, wcongRectContains } from '../../../utils/geo/wcongnamul';
import { KAKAO_PAGE_SIZE, type MapDaumRequest } from '../../../utils/providers/kakao/urls';
import { normaliseQuery } from '../categories';
import { queryMatcher } from '../search';
import type { KakaoReplicaPlace, KakaoWorld } from './places';
import type { KakaoSwitches } from './switches';

export interface KakaoSearchOutcome {
  /** Every match, ranked (not capped). */
  ranked: KakaoReplicaPlace[];
  /** The rect that was really searched (after `rectMode`), null = unrestricted. */
  searched: WcongRect | null;
}

/**
 * The same search of the same world ranks the same places: a sweep turns each list's pages one
 * by one, and each turn asked for the whole ranking again (a ninth of an in-process Kakao sweep's
 * time). A world is never changed once made; each caller gets its own copy of the ranking.
 */
const RANKINGS = new WeakMap<KakaoWorld, Map<string, KakaoSearchOutcome>>();
const RANKINGS_KEPT = 256;

export function kakaoSearch(kw: KakaoWorld, query: string, rect: WcongRect | null, switches: Pick<KakaoSwitches, 'rectMode'>): KakaoSearchOutcome {
  let kept = RANKINGS.get(kw);
  if (!kept) {
    kept = new Map();
    RANKINGS.set(kw, kept);
  }
  const key = JSON.stringify([query, rect, switches.rectMode]);
  let outcome = kept.get(key);
  if (!outcome) {
    if (kept.size >= RANKINGS_KEPT) kept.clear();
    outcome = rankKakao(kw, query, rect, switches);
    kept.set(key, outcome);
  }
  return { ranked: [...outcome.ranked], searched: outcome.searched };
}

function rankKakao(kw: KakaoWorld, query: string, rect: WcongRect | null, switches: Pick<KakaoSwitches, 'rectMode'>): KakaoSearchOutcome {
  const matcher = queryMatcher(query);
  const q = normaliseQuery(query);
  const searched = rect && switches.rectMode !== 'ignored' ? (switches.rectMode === 'inset' ? inset(rect, 0.05) : rect) : null;
  const centre = searched ? wcongnamulToWgs84({ x: (searched.x1 + searched.x2) / 2, y: (searched.y1 + searched.y2) / 2 })! : kw.world.centre;
  const matched = kw.places.filter(
    (k) => (matcher.matches(k.place) || (q.length > 0 && normaliseQuery(k.name).includes(q))) && (!searched || wcongRectContains(searched, k)),
  );
  const radius = Math.max(1, ...matched.map((k) => haversineMetres(centre, k)));
  const ranked = matched
    .map((k) => ({ k, key: k.place.prominence - (0.5 * haversineMetres(centre, k)) / radius }))
    .sort((a, b) => b.key - a.key || compareId(a.k.confirmId, b.k.confirmId))
    .map((r) => r.k);
  return { ranked, searched };
}

/** Every matching place inside a rect: what a perfect sweep collects. */
export function kakaoGroundTruth(kw: KakaoWorld, query: string, rect: WcongRect): KakaoReplicaPlace[] {
  return kakaoSearch(kw, query, rect, { rectMode: 'exact' }).ranked.sort((a, b) => a.place.index - b.place.index);
}

export interface MapDaumAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The 2026 endpoint's reachable results [~] (B4b: `page_count` "capped at 500"). */
export const MAPSEARCH_REACHABLE = 500;

/**
 * A search answer, in the map.daum shape both endpoints share (the server applies block, token and
 * fault switches before this). The 2026 endpoint's `page_count` is the results one can page to,
 * at most 500, and it lists no further; map.daum's is about 25 whatever the search (B4).
 */
export function answerMapDaum(kw: KakaoWorld, switches: KakaoSwitches, req: MapDaumRequest, sentUrl?: string): MapDaumAnswer {
  const box = requestBox(req, sentUrl, switches.rectParam);
  const { ranked } = kakaoSearch(kw, req.query, box, switches);
  const page = req.page;
  const reachable = Math.min(ranked.length, switches.capPages * KAKAO_PAGE_SIZE, req.endpoint === 'mapsearch' ? MAPSEARCH_REACHABLE : Infinity);
  const slice = ranked.slice(Math.min(reachable, (page - 1) * KAKAO_PAGE_SIZE), Math.min(reachable, page * KAKAO_PAGE_SIZE));
  const records = slice.map((k) => placeRecord(k, switches, false));
  if (switches.ads && page === 1 && ranked.length > 0) records.unshift(placeRecord(ranked[Math.min(3, ranked.length - 1)]!, switches, true));
  const data = {
    place_totalcount: String(ranked.length),
    page_count: req.endpoint === 'mapsearch' ? reachable : 25,
    page: String(page),
    place: records,
    address: [],
    guide_message: [],
    search_center_radius: 2000,
    region_type: box ? 'rect' : 'national',
    bus: [],
    busStop: [],
    premium: [],
    cateGroupList: [],
  };
  const json = JSON.stringify(data);
  return req.callback
    ? { status: 200, contentType: 'text/javascript; charset=utf-8', body: `/**/${req.callback}(${json});` }
    : { status: 200, contentType: 'application/json; charset=utf-8', body: json };
}

export function placeRecord(k: KakaoReplicaPlace, s: Pick<KakaoSwitches, 'coords' | 'fieldDrift' | 'openoff'>, ad: boolean): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  if (s.fieldDrift) {
    r.cid = k.confirmId;
    r.category = k.categoryPath.join(' > ');
  } else {
    r.confirmid = k.confirmId;
    k.categoryPath.forEach((c, i) => {
      r[`cate_name_depth${i + 1}`] = c;
    });
    for (let i = k.categoryPath.length; i < 5; i++) r[`cate_name_depth${i + 1}`] = '';
  }
  Object.assign(r, {
    name: k.name,
    last_cate_name: k.categoryPath.at(-1),
    address: k.jibunAddress,
    new_address: k.roadAddress,
    address_disp: k.jibunAddress.split(' ').join('|'),
    new_address_disp: k.roadAddress.split(' ').join('|'),
    tel: k.phone ?? '',
    homepage: k.homepage ?? '',
    rating_average: k.rating ?? 0,
    rating_count: k.ratingCount ?? 0,
    reviewCount: k.ratingCount ?? 0,
    img: '',
    distance: '1234',
  });
  if (s.coords !== 'latlon') Object.assign(r, { x: String(k.x), y: String(k.y), roadview: `0|${k.x}|${k.y}|0` });
  if (s.coords !== 'xy') Object.assign(r, { lat: String(k.lat), lon: String(k.lng) });
  // The list's hours line (B2: `.openhour > p > a[data-id=periodTxt]`, "매일 10:30 ~ 21:00"): the
  // field's name in the answer is the replica's own (no source gives one); the page draws it, and
  // the extension reads the page.
  const hours = kakaoHoursText(k.place.hours);
  if (hours) r.replica_period_txt = hours;
  if (s.openoff !== 'absent') r.openoff_status = (s.openoff === 'closed' ? k.closed : !openAt(LATE_EVENING, k.place.hours)) ? 'N' : 'Y';
  if (ad) Object.assign(r, { sourceId: 'ad', source: 'ad' });
  return r;
}

/**
 * The box a request asks the replica to search, read here from the URL as sent (not through the
 * extension's reading of it): its `rect` in WCONGNAMUL, or in degrees (`wgs84`: lng,lat,lng,lat,
 * turned into the grid rect that covers it), or under a renamed `rectParam` the `bbox` the page
 * sends instead, with whatever `msFlag`; `absent` sends none, and the search is not bounded.
 */
function requestBox(req: MapDaumRequest, sentUrl: string | undefined, form: KakaoSwitches['rectParam']): WcongRect | null {
  const params = sentUrl ? new URL(sentUrl).searchParams : null;
  if (!params) return req.rect;
  if (form === 'absent') return null;
  const numbers = (name: string) => {
    const v = (params.get(name) ?? '').split(',').map(Number);
    return v.length === 4 && v.every(Number.isFinite) ? v : null;
  };
  if (form === 'wgs84') {
    const d = numbers('rect');
    return d
      ? bboxToWcongRect({ west: Math.min(d[0]!, d[2]!), south: Math.min(d[1]!, d[3]!), east: Math.max(d[0]!, d[2]!), north: Math.max(d[1]!, d[3]!) })
      : null;
  }
  const r = numbers(form === 'rect' ? 'rect' : 'bbox');
  return r ? { x1: Math.min(r[0]!, r[2]!), y1: Math.min(r[1]!, r[3]!), x2: Math.max(r[0]!, r[2]!), y2: Math.max(r[1]!, r[3]!) } : null;
}

function inset(r: WcongRect, share: number): WcongRect {
  const dx = (r.x2 - r.x1) * share;
  const dy = (r.y2 - r.y1) * share;
  return { x1: r.x1 + dx, y1: r.y1 + dy, x2: r.x2 - dx, y2: r.y2 - dy };
}

function compareId(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The hour an `off-hours` status is read at: late evening, when most places have closed for the day. */
const LATE_EVENING = 23;

/** The week as Kakao's list line words it: "매일 10:00 ~ 22:00" (the world's places keep one span every day). */
export function kakaoHoursText(hours: KakaoReplicaPlace['place']['hours']): string | null {
  if (hours === null) return null;
  const two = (n: number) => String(n).padStart(2, '0');
  return hours === 'open24h' ? '매일 00:00 ~ 24:00' : `매일 ${two(hours.opens)}:00 ~ ${two(hours.closes)}:00`;
}

/** Whether a place's hours hold `hour`; unknown hours count as open. */
function openAt(hour: number, hours: KakaoReplicaPlace['place']['hours']): boolean {
  return hours === null || hours === 'open24h' || (hours.opens <= hour && hours.closes > hour);
}
