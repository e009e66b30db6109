/**
 * The Naver browser suite as naver.test.ts and naver-proof.test.ts both run it: one world, the
 * replica's lazy batches at 60 ms, a Naver Map tab to start from, the ground truth from the
 * replica (never from the extension).
 */
import { parseAreaText } from '../../utils/geo';
import { naverChromiumArgs, startNaverReplica, type NaverReplica } from '../replica/naver/server';
import { DEFAULT_NAVER_SWITCHES, type NaverSwitches } from '../replica/naver/switches';
import { createWorld } from '../replica/world';
import { CENTRE, KEYWORD, providerSuite } from './provider-suite';

const world = createWorld({ seed: 17, places: 30_000, centre: CENTRE, radiusKm: 5 });

export function naverSuite() {
  return providerSuite<NaverReplica, NaverSwitches>({
    provider: 'naver',
    start: () => startNaverReplica({ world, switches: { lazyDelayMs: 60 } }),
    defaultSwitches: () => ({ ...DEFAULT_NAVER_SWITCHES, lazyDelayMs: 60 }),
    chromiumArgs: naverChromiumArgs,
    tabUrl: (query) => `https://map.naver.com/p/search/${encodeURIComponent(query)}`,
    truthOf(replica, areaText) {
      const area = parseAreaText(areaText);
      if (!area.ok) throw new Error(area.error.message);
      return new Map(replica.groundTruth(KEYWORD, area.area.bbox).map((p) => [p.id, { lat: p.place.lat, lng: p.place.lng }]));
    },
  });
}
