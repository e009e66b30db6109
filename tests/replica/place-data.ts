/**
 * The JSON side of the replica (map-pages-spec §1.5, §1.6): the place array P, the `/search?tbm=map`
 * response in both framings, and the place page's `APP_INITIALIZATION_STATE`.
 * Index positions follow the real captures in ../shared/real-pages/google.
 */
import type { MapView, Viewport } from '../../utils/geo/types';
import { placePageUrl } from './hrefs';
import { type ReplicaLang, openStatusText } from './locale';
import { viewDistance } from './mercator';
import type { ReplicaPlace } from './world';

/** The anti-JSON-hijacking prefix every Google JSON answer starts with. */
export const XSSI_PREFIX = ")]}'\n";
/** P is long (244 in a 2024 capture); only the fields below are filled. */
const P_LENGTH = 244;

export interface PlaceArrayOptions {
  /** Signed out, the list pages show no review count: `P[4][8]` is dropped too. */
  signedIn: boolean;
  query: string;
  /** The page's language (`hl`): texts in P follow it; the place should be localised already (locale.ts). */
  lang?: ReplicaLang;
}

/** P: the place array of §1.5's table. */
export function placeArray(place: ReplicaPlace, opts: PlaceArrayOptions): unknown[] {
  const P: unknown[] = new Array(P_LENGTH).fill(null);
  const lang = opts.lang ?? 'en';
  // The street line, then the rest ("12 Sejong-daero" + "Jung District, Seoul, South Korea";
  // in Korean "세종대로 12" + "대한민국 서울특별시 중구").
  const streetLine = place.address.street;
  const rest = place.fullAddress.startsWith(`${streetLine}, `)
    ? place.fullAddress.slice(streetLine.length + 2)
    : place.fullAddress.replace(streetLine, '').trim();
  P[2] = [streetLine, rest];
  P[4] =
    place.rating === null
      ? null
      : [
          null,
          null,
          place.priceLevel,
          [
            `https://search.google.com/local/reviews?placeid=${place.placeId}&q=${encodeURIComponent(opts.query)}&authuser=0&hl=${lang}`,
            place.reviewCount === null ? null : lang === 'ko' ? `리뷰 ${place.reviewCount}개` : `${place.reviewCount} reviews`,
            null,
            '0ahUKEwi-replica',
          ],
          null,
          null,
          null,
          place.rating,
          opts.signedIn ? place.reviewCount : null,
        ];
  P[7] = place.website === null ? null : [websiteValue(place), domainOf(place.website), null, '0ahUKEwi-replica'];
  P[9] = [null, null, place.lat, place.lng];
  P[10] = place.featureId;
  P[11] = place.name;
  P[13] = [...place.categories];
  P[14] = place.address.district;
  P[18] = `${place.name}, ${place.fullAddress}`;
  // The canonical link; the search page's single-result redirect goes here.
  P[27] = placePageUrl(place);
  P[30] = 'Asia/Seoul';
  P[34] = hoursBlock(place, lang);
  P[39] = place.fullAddress;
  P[78] = place.placeId;
  P[88] = [null, `SearchResult.TYPE_${place.category.toUpperCase()}`];
  P[89] = place.mid;
  P[178] =
    place.phone === null
      ? null
      : [
          [
            place.phone.display,
            [
              [place.phone.display, 1],
              [place.phone.international, 2],
            ],
            null,
            place.phone.digits,
            null,
            [`tel:${place.phone.digits}`, null, null, '0ahUKEwi-replica'],
          ],
        ];
  P[183] = [
    [[1, [[place.fullAddress]]]],
    // [borough, street, street, city, postal, state, country code], as in the Athens capture.
    [place.address.district, place.address.street, place.address.street, place.address.city, place.address.postal, null, place.address.countryCode],
  ];
  P[203] = weeklyHours(place, lang);
  return P;
}

/** The week the replica's data describes, from "today" (a Saturday, as in the captures) on. */
const WEEK: ReadonlyArray<[name: string, isoDay: number, date: [number, number, number]]> = [
  ['Saturday', 6, [2026, 12, 5]],
  ['Sunday', 7, [2026, 12, 6]],
  ['Monday', 1, [2026, 12, 7]],
  ['Tuesday', 2, [2026, 12, 8]],
  ['Wednesday', 3, [2026, 12, 9]],
  ['Thursday', 4, [2026, 12, 10]],
  ['Friday', 5, [2026, 12, 11]],
];

/**
 * `P[203]`: `[0]` one entry per day `[name, isoDay, [y,m,d], [[text, [[h],[h]]]], 0, 1]`,
 * `[1]` today's entry and the open-status line at `[1][4][0]` (the Athens capture's layout).
 * The replica's places keep the same hours every day.
 */
function weeklyHours(place: ReplicaPlace, lang: ReplicaLang): unknown[] | null {
  if (place.hours === null) return null;
  const ko = lang === 'ko';
  const range = (h: { opens: number; closes: number }) => (ko ? `${hourKo(h.opens)}~${hourKo(h.closes)}` : `${hourText(h.opens)}–${hourText(h.closes)}`);
  const slot =
    place.hours === 'open24h' ? [ko ? '24시간 영업' : 'Open 24 hours', [[0], [24]]] : [range(place.hours), [[place.hours.opens], [place.hours.closes]]];
  const days = WEEK.map(([name, iso, date]) => [ko ? KO_DAYS[iso - 1]! : name, iso, date, [slot], 0, 1]);
  return [days, [days[0], 0, 1, null, [openStatus(place, lang), [[0, 4, [null, [4279862841, 4285388172]]]]]], 6, null, null, null, 1];
}

/** `P[7][0]`: some places wrap their site in Google's redirect, which extractors must unwrap. */
function websiteValue(place: ReplicaPlace): string {
  const site = place.website!;
  return place.websiteWrapped ? `/url?q=${encodeURIComponent(site)}&opi=79508299&sa=U&ved=0ahUKEwi-replica&usg=AOvVaw-replica` : site;
}

function domainOf(url: string): string {
  return url.replace(/^https?:\/\/(www\.)?/, '').replace(/\/.*$/, '');
}

/** `P[34]`: open status text at `[4][4]`, as older scrapers read it. */
function hoursBlock(place: ReplicaPlace, lang: ReplicaLang): unknown[] | null {
  const status = openStatus(place, lang);
  return status === null ? null : [null, null, null, null, [null, null, null, null, status]];
}

/** The card's open-status line ("Open ⋅ Closes 10 PM"); the replica's clock is always midday. */
export function openStatus(place: ReplicaPlace, lang: ReplicaLang = 'en'): string | null {
  return openStatusText(place.hours, lang);
}

const KO_DAYS = ['월요일', '화요일', '수요일', '목요일', '금요일', '토요일', '일요일'];

/** "오전 7시", "오후 10시" (Google's Korean hours). */
function hourKo(h: number): string {
  const hh = h % 24;
  return hh < 12 ? `오전 ${hh === 0 ? 12 : hh}시` : `오후 ${hh === 12 ? 12 : hh - 12}시`;
}

function hourText(h: number): string {
  const hh = h % 24;
  if (hh === 0) return '12 AM';
  if (hh === 12) return '12 PM';
  return hh < 12 ? `${hh} AM` : `${hh - 12} PM`;
}

/** `[[viewDistance, lng, lat], [0,0,0], [w,h], zoom]`: how both JSON answers describe the map view. */
export function viewportArray(view: MapView, viewport: Pick<Viewport, 'width' | 'height'>): unknown[] {
  return [[viewDistance(view, viewport.height), view.lng, view.lat], [0, 0, 0], [viewport.width, viewport.height], view.zoom];
}

export interface SearchResponseInput {
  query: string;
  /** This batch's places, in rank order. */
  places: readonly ReplicaPlace[];
  finalView: MapView;
  viewport: Pick<Viewport, 'width' | 'height'>;
  signedIn: boolean;
  /** The page's language; the places are given localised already (locale.ts localisePlace). */
  lang?: ReplicaLang;
  /** A sponsored copy of an organic place, first batch only (the 2021 path `data[2][1][0][k][15]`). */
  sponsored?: ReplicaPlace | null;
}

/**
 * The decoded `/search?tbm=map` answer: `data[0] = [q, [header, ...items]]` with P at `item[14]`,
 * `data[1]` the final view. An empty batch still carries the header.
 */
export function searchResponseData(input: SearchResponseInput): unknown[] {
  const opts = { signedIn: input.signedIn, query: input.query, lang: input.lang ?? 'en' };
  const header = [null, null, null, null, null, null, null, null, 'replicaEi', '0ahUKEwi-replica', [input.query, 0]];
  const items = input.places.map((p, i) => {
    const item: unknown[] = new Array(15).fill(null);
    item[8] = 'replicaEi';
    item[9] = `0ahUKEwi-replica-${i}`;
    item[14] = placeArray(p, opts);
    return item;
  });
  const data: unknown[] = new Array(67).fill(null);
  data[0] = [input.query, [header, ...items]];
  data[1] = viewportArray(input.finalView, input.viewport);
  if (input.sponsored) {
    const ad: unknown[] = new Array(16).fill(null);
    ad[15] = placeArray(input.sponsored, opts);
    data[2] = [null, [[ad]]];
  }
  return data;
}

/** Direct request framing: `)]}'\n[…]`. */
export function frameDirect(data: unknown): string {
  return XSSI_PREFIX + JSON.stringify(data);
}

/** In-page XHR framing (`tch=1`): `{"c":0,"d":")]}'\n[…]"}/*""*\/`. */
export function frameInPage(data: unknown): string {
  return `${JSON.stringify({ c: 0, d: XSSI_PREFIX + JSON.stringify(data) })}/*""*/`;
}

/**
 * The place page's state: `APP_INITIALIZATION_STATE[3]` is an object whose (obfuscated) first key holds an
 * array with the `)]}'`-prefixed string at [6]; in it `jd[4]` is the view, `jd[6]` is P and
 * `jd[25][3][0][13][0][0][1]` the CID.
 */
export function appInitializationState(place: ReplicaPlace, view: MapView, viewport: Pick<Viewport, 'width' | 'height'>, lang: ReplicaLang = 'en'): unknown[] {
  const jd: unknown[] = new Array(32).fill(null);
  jd[4] = viewportArray(view, viewport);
  // Signed out only hides the Reviews tab here (S8): the count stays.
  jd[6] = placeArray(place, { signedIn: true, query: place.name, lang });
  const kg: unknown[] = new Array(14).fill(null);
  kg[13] = [[[place.hi.toString(10), place.cid], place.mid]];
  jd[25] = [null, null, null, [kg]];
  const slot: unknown[] = [null, null, null, null, null, null, XSSI_PREFIX + JSON.stringify(jd)];
  return [viewportArray(view, viewport), null, null, { ug9rE: slot }, null, null, null, null, null, null, null, null, 'replica'];
}

/** JSON for inside a `<script>`: `<` escaped so page content can never close the tag. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
