/**
 * Google place identifiers and how they map to one dedup key.
 *
 * A place has a 64-bit pair (hi, lo). The page shows it in three forms:
 * - feature id `0x{hi}:0x{lo}` (the `!1s` token of a place href, `P[10]` in JSON);
 * - CID: `lo` as an unsigned decimal (`?cid=`);
 * - ChIJ place_id: base64url of the protobuf `0a 12 09 <hi, 8 bytes LE> 11 <lo, 8 bytes LE>`
 *   (the `!19s` token, `P[78]` in JSON).
 * Every form carries `lo`, so the dedup key is `google:{cid}` (see map-pages-spec §1.4).
 */

const FEATURE_ID = /^0x([0-9a-f]{1,16}):0x([0-9a-f]{1,16})$/i;
const MASK64 = (1n << 64n) - 1n;

export interface GoogleIds {
  featureId: string;
  cid: string;
  placeId: string;
}

/** All three forms from the raw pair. */
export function idsFromPair(hi: bigint, lo: bigint): GoogleIds {
  hi &= MASK64;
  lo &= MASK64;
  return {
    featureId: `0x${hi.toString(16)}:0x${lo.toString(16)}`,
    cid: lo.toString(10),
    placeId: encodePlaceId(hi, lo),
  };
}

/** The pair inside a feature id, or null if it is not one. */
export function parseFeatureId(featureId: string): { hi: bigint; lo: bigint } | null {
  const m = FEATURE_ID.exec(featureId.trim());
  if (!m) return null;
  return { hi: BigInt(`0x${m[1]}`), lo: BigInt(`0x${m[2]}`) };
}

export function featureIdToCid(featureId: string): string | null {
  return parseFeatureId(featureId)?.lo.toString(10) ?? null;
}

export function featureIdToPlaceId(featureId: string): string | null {
  const pair = parseFeatureId(featureId);
  return pair ? encodePlaceId(pair.hi, pair.lo) : null;
}

/** The feature id inside a ChIJ place_id, or null if it is not of the two-fixed64 form. */
export function placeIdToFeatureId(placeId: string): string | null {
  const bytes = base64UrlDecode(placeId.trim());
  if (bytes?.length !== 20) return null;
  if (bytes[0] !== 0x0a || bytes[1] !== 0x12 || bytes[2] !== 0x09 || bytes[11] !== 0x11) return null;
  return idsFromPair(readUint64LE(bytes, 3), readUint64LE(bytes, 12)).featureId;
}

/** A CID given as a decimal string, normalised (no leading zeros), or null if not a uint64. */
export function normaliseCid(cid: string): string | null {
  const s = cid.trim();
  if (!/^\d{1,20}$/.test(s)) return null;
  const n = BigInt(s);
  return n > MASK64 ? null : n.toString(10);
}

export function keyFromCid(cid: string): string {
  return `google:${cid}`;
}

/**
 * Whatever ids a page gave, resolve them to one consistent set. Returns null when nothing
 * identifies the place, or when the forms contradict each other (a forged or corrupt value).
 */
export function resolveIds(given: {
  featureId?: string | null;
  cid?: string | null;
  placeId?: string | null;
}): { key: string; cid: string; featureId: string | null; placeId: string | null } | null {
  const fromFeature = given.featureId ? parseFeatureId(given.featureId) : null;
  const featureFromPlace = given.placeId ? placeIdToFeatureId(given.placeId) : null;
  const fromPlace = featureFromPlace ? parseFeatureId(featureFromPlace) : null;
  const pair = fromFeature ?? fromPlace;
  if (fromFeature && fromPlace && (fromFeature.hi !== fromPlace.hi || fromFeature.lo !== fromPlace.lo)) return null;
  const cidGiven = given.cid ? normaliseCid(given.cid) : null;
  if (pair) {
    const ids = idsFromPair(pair.hi, pair.lo);
    if (cidGiven && cidGiven !== ids.cid) return null;
    return { key: keyFromCid(ids.cid), cid: ids.cid, featureId: ids.featureId, placeId: ids.placeId };
  }
  if (cidGiven) return { key: keyFromCid(cidGiven), cid: cidGiven, featureId: null, placeId: null };
  return null;
}

function encodePlaceId(hi: bigint, lo: bigint): string {
  const bytes = new Uint8Array(20);
  bytes.set([0x0a, 0x12, 0x09], 0);
  writeUint64LE(bytes, 3, hi);
  bytes[11] = 0x11;
  writeUint64LE(bytes, 12, lo);
  return base64UrlEncode(bytes);
}

function writeUint64LE(bytes: Uint8Array, at: number, value: bigint): void {
  for (let i = 0; i < 8; i++) bytes[at + i] = Number((value >> BigInt(8 * i)) & 0xffn);
}

function readUint64LE(bytes: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]!);
  return v;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function base64UrlEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += B64[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

function base64UrlDecode(text: string): Uint8Array | null {
  const s = text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of s) {
    buffer = (buffer << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}
