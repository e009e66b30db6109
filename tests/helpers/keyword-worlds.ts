/**
 * A world as one keyword's searches see it: only the places that keyword matches. Every answer
 * for that keyword is the same as the full world's (naverSearch, adsFor and naverGroundTruth
 * keep only matching places and rank each on its own; kakaoSearch likewise), so a sweep of one
 * keyword can run on it without converting every place in a box on every page
 * (tests/unit/bench-recall.test.ts checks the sameness). Used by the in-process Naver and Kakao
 * sweeps and the recall bench.
 */
import { normaliseQuery } from '../replica/categories';
import type { KakaoWorld } from '../replica/kakao/places';
import { naverPlaceOf } from '../replica/naver/data';
import { naverMatcher } from '../replica/naver/search';
import { queryMatcher } from '../replica/search';
import type { World } from '../replica/world';

export function naverKeywordWorld(world: World, keyword: string): World {
  const matches = naverMatcher(keyword);
  const keep = new Set(world.places.filter((p) => matches(naverPlaceOf(p))).map((p) => p.index));
  return { ...world, places: world.places.filter((p) => keep.has(p.index)), placesIn: (b) => world.placesIn(b).filter((p) => keep.has(p.index)) };
}

/** The Kakao world as one keyword's searches see it: only its matching places (kakaoSearch ranks each on its own). */
export function kakaoKeywordWorld(kw: KakaoWorld, keyword: string): KakaoWorld {
  const matcher = queryMatcher(keyword);
  const q = normaliseQuery(keyword);
  return { ...kw, places: kw.places.filter((k) => matcher.matches(k.place) || (q.length > 0 && normaliseQuery(k.name).includes(q))) };
}
