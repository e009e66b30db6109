/**
 * Place URLs as the real site writes them (map-pages-spec §1.4). The `data=` parameter is a list of
 * `!{field}{type}{value}` tokens; an `m` token's number is how many tokens its group holds, so the
 * counts are computed from the tree rather than written by hand.
 */
import type { MapView } from '../../utils/geo/types';
import { GOOGLE_ORIGIN } from '../../utils/providers/google/urls';
import type { ReplicaPlace } from './world';

export type DataToken =
  | { field: number; type: 'm'; children: DataToken[] }
  | { field: number; type: 's' | 'd' | 'i' | 'b' | 'e' | 'z'; value: string | number };

/** Serialise a token tree: `m` groups get the count of every token nested below them. */
export function dataParam(tokens: readonly DataToken[]): string {
  return tokens.map(serialiseToken).join('');
}

function serialiseToken(t: DataToken): string {
  if (t.type === 'm') return `!${t.field}m${countTokens(t.children)}${dataParam(t.children)}`;
  return `!${t.field}${t.type}${t.value}`;
}

function countTokens(tokens: readonly DataToken[]): number {
  return tokens.reduce((n, t) => n + 1 + (t.type === 'm' ? countTokens(t.children) : 0), 0);
}

/** `Good+Thanks+Cafe`: path form of a name (spaces as `+`, everything else percent-encoded). */
export function nameSegment(name: string): string {
  return encodeURIComponent(name).replace(/%20/g, '+');
}

/** Coordinates as hrefs print them: up to 7 decimals, no trailing zeros. */
export function coord(v: number): string {
  return String(Number(v.toFixed(7)));
}

function placeTokens(place: ReplicaPlace, extra: DataToken[] = []): DataToken[] {
  return [
    { field: 1, type: 's', value: place.featureId },
    {
      field: 8,
      type: 'm',
      children: [
        { field: 3, type: 'd', value: coord(place.lat) },
        { field: 4, type: 'd', value: coord(place.lng) },
      ],
    },
    ...extra,
    { field: 16, type: 's', value: encodeURIComponent(place.mid) },
  ];
}

/**
 * The overlay link of a result card:
 * `/maps/place/{Name}/data=!4m7!3m6!1s0x…:0x…!8m2!3d…!4d…!16s%2Fg%2F…!19sChIJ…?authuser=0&hl=en&rclk=1`.
 */
export function cardHref(place: ReplicaPlace): string {
  const data = dataParam([
    { field: 4, type: 'm', children: [{ field: 3, type: 'm', children: [...placeTokens(place), { field: 19, type: 's', value: place.placeId }] }] },
  ]);
  return `${GOOGLE_ORIGIN}/maps/place/${nameSegment(place.name)}/data=${data}?authuser=0&hl=en&rclk=1`;
}

/**
 * The same place as a sponsored card links it: one more token in the group (`!10e5`, an ad-surface marker
 * we made up), so the href differs from the organic card's while the ids agree. [?] in the spec's terms.
 */
export function sponsoredCardHref(place: ReplicaPlace): string {
  const data = dataParam([
    {
      field: 4,
      type: 'm',
      children: [
        {
          field: 3,
          type: 'm',
          children: [...placeTokens(place, [{ field: 10, type: 'e', value: 5 }]), { field: 19, type: 's', value: place.placeId }],
        },
      ],
    },
  ]);
  return `${GOOGLE_ORIGIN}/maps/place/${nameSegment(place.name)}/data=${data}?authuser=0&hl=en&rclk=1`;
}

/** The browser URL of an open place page: `/maps/place/{Name}/@lat,lng,17z/data=!4m6!3m5!1s…!8m2!3d…!4d…!16s…`. */
export function placePageUrl(place: ReplicaPlace, view?: MapView): string {
  return `${placePagePath(place, view)}?entry=ttu`;
}

function placePagePath(place: ReplicaPlace, view?: MapView): string {
  const v = view ?? { lat: place.lat, lng: place.lng, zoom: 17 };
  const data = dataParam([{ field: 4, type: 'm', children: [{ field: 3, type: 'm', children: placeTokens(place) }] }]);
  return `${GOOGLE_ORIGIN}/maps/place/${nameSegment(place.name)}/@${coord(v.lat)},${coord(v.lng)},${v.zoom}z/data=${data}`;
}

/**
 * `g_ep` of a shared link: an opaque base64 protobuf whose readable part is a build date (`20260101.0`);
 * public landing URLs of 2024–26 carry one of this shape. Ours is made up, never read.
 */
const SHARE_G_EP = encodeURIComponent(
  Buffer.from([0x12, 0x0a, ...Buffer.from('20260101.0'), 0x20, 0xa5, 0xcc, 0x0d, 0x2a, 0x00, 0x48, 0x01, 0x50, 0x03]).toString('base64'),
);

/**
 * Where a maps.app.goo.gl share of the place lands: its place page URL with the share's query,
 * `?entry=tts&g_ep=…&skid={uuid}` (public landing URLs, 2024–26; `skid` differs per share).
 */
export function sharedPlaceUrl(place: ReplicaPlace, skid: string): string {
  return `${placePagePath(place)}?entry=tts&g_ep=${SHARE_G_EP}&skid=${skid}`;
}
