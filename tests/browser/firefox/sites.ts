/**
 * The three replica map sites (Google, Naver, Kakao) for one Firefox: the servers, the proxy
 * that routes their hosts to them (from the same MAP rules the Chromium tests pass as flags),
 * and each site's ground truth for an area, through each replica's own search and ids (as
 * ../three-sites.ts truthByPlace computes it).
 */
import { areaContains } from '../../../utils/geo';
import type { Area } from '../../../utils/geo/types';
import { bboxToWcongRect } from '../../../utils/geo/wcongnamul';
import { kakaoChromiumArgs, startKakaoReplica, type KakaoReplica } from '../../replica/kakao/server';
import { kakaoGroundTruth } from '../../replica/kakao/search';
import { naverChromiumArgs, startNaverReplica, type NaverReplica } from '../../replica/naver/server';
import { chromiumArgs, startReplica, type Replica } from '../../replica/server';
import type { World } from '../../replica/world';
import { routesFromResolverArgs, startMapProxy, type MapProxy } from './proxy';

export type Site = 'google' | 'naver' | 'kakao';

export interface FirefoxSites {
  google: Replica;
  naver: NaverReplica;
  kakao: KakaoReplica;
  proxy: MapProxy;
  close(): Promise<void>;
}

export async function startSites(world: World): Promise<FirefoxSites> {
  const [google, naver, kakao] = await Promise.all([startReplica({ world }), startNaverReplica({ world }), startKakaoReplica({ world })]);
  const proxy = await startMapProxy(routesFromResolverArgs(chromiumArgs(google.port), naverChromiumArgs(naver.port), kakaoChromiumArgs(kakao.port)));
  return {
    google,
    naver,
    kakao,
    proxy,
    async close() {
      await proxy.close();
      await Promise.all([google.close(), naver.close(), kakao.close()]);
    },
  };
}

/** The map tab a person has open when pressing Start, and the keyword typed there (../three-sites.ts SITE_SEARCHES). */
export const SITE_SEARCHES: ReadonlyArray<{ site: Site; keyword: string; url: (centre: { lat: number; lng: number }) => string }> = [
  { site: 'google', keyword: 'cafe', url: (c) => `https://www.google.com/maps/search/cafe/@${c.lat},${c.lng},15z` },
  { site: 'naver', keyword: '카페', url: () => `https://map.naver.com/p/search/${encodeURIComponent('카페')}` },
  { site: 'kakao', keyword: '카페', url: () => `https://map.kakao.com/?q=${encodeURIComponent('카페')}` },
];

/**
 * A site's truth for its keyword in `area`: each place its own search has there, by the id the
 * export's provider_id carries (Google's CID, Naver's place id, Kakao's confirmid), with the name
 * the site shows for it (the Korean a CSV must carry intact).
 */
export function truthOf(sites: FirefoxSites, site: Site, keyword: string, area: Area): Map<string, string> {
  if (site === 'google') return new Map(sites.google.groundTruth(keyword, area).map((p) => [p.cid, p.name]));
  if (site === 'naver') {
    return new Map(
      sites.naver
        .groundTruth(keyword, area.bbox)
        .filter((n) => areaContains(area, { lat: Number(n.y), lng: Number(n.x) }))
        .map((n) => [n.id, n.name]),
    );
  }
  // Kakao's search is in WCONGNAMUL rectangles: a wider one, then the area's own test in degrees.
  const b = area.bbox;
  const wider = bboxToWcongRect({ south: b.south - 0.01, west: b.west - 0.01, north: b.north + 0.01, east: b.east + 0.01 })!;
  return new Map(
    kakaoGroundTruth(sites.kakao.kakao, keyword, wider)
      .filter((k) => areaContains(area, k))
      .map((k) => [k.confirmId, k.name]),
  );
}
