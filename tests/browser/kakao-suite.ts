/**
 * The Kakao browser suite as kakao.test.ts and kakao-variants.test.ts both run it: one world, the
 * areas they sweep, a Kakao Map tab to start from, the ground truth from the replica (never from
 * the extension). Each file calls kakaoSuite() for a replica and a browser of its own.
 */
import { areaContains, parseAreaText } from '../../utils/geo';
import { bboxToWcongRect } from '../../utils/geo/wcongnamul';
import { kakaoChromiumArgs, startKakaoReplica, type KakaoReplica } from '../replica/kakao/server';
import { kakaoGroundTruth } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES, type KakaoSwitches } from '../replica/kakao/switches';
import { createWorld } from '../replica/world';
import { areaAround, CENTRE, KEYWORD, providerSuite } from './provider-suite';

const world = createWorld({ seed: 19, places: 30_000, centre: CENTRE, radiusKm: 5 });

/** About 1.1 × 1.1 km: a few hundred cafes. */
export const DISTRICT = areaAround(0.005);
export const SMALL = areaAround(0.0025, 37.572, 126.985);
/** About 220 × 280 m: one cell, a few cafes. */
export const TINY = areaAround(0.001, 37.572, 126.985);

/** Every place of the keyword inside the area, by confirmid. */
export function truthOf(
  replica: KakaoReplica,
  areaText: string,
): Map<string, { lat: number; lng: number; hours: KakaoReplica['kakao']['places'][number]['place']['hours'] }> {
  const area = parseAreaText(areaText);
  if (!area.ok) throw new Error(area.error.message);
  const b = area.area.bbox;
  const wider = bboxToWcongRect({ south: b.south - 0.01, west: b.west - 0.01, north: b.north + 0.01, east: b.east + 0.01 })!;
  return new Map(
    kakaoGroundTruth(replica.kakao, KEYWORD, wider)
      .filter((k) => areaContains(area.area, k))
      .map((k) => [k.confirmId, { lat: k.lat, lng: k.lng, hours: k.place.hours }]),
  );
}

export function kakaoSuite() {
  return providerSuite<KakaoReplica, KakaoSwitches>({
    provider: 'kakao',
    start: () => startKakaoReplica({ world }),
    defaultSwitches: () => DEFAULT_KAKAO_SWITCHES,
    chromiumArgs: kakaoChromiumArgs,
    tabUrl: (query) => `https://map.kakao.com/?q=${encodeURIComponent(query)}`,
    truthOf,
  });
}
