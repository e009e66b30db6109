/**
 * pcmap.place.naver.com/{type}/{id}/review/visitor: the place's visitor reviews page (map-pages-spec
 * §5, S26; naver-kakao-notes A). A header with the counts ("방문자 리뷰 1,234", "블로그 리뷰 56"), the
 * "이런 점이 좋았어요" keyword tallies, the sort tabs, then `ul#_review_list` of `li` items (the first
 * page rendered by the server with the page script's own functions), and the "펼쳐서 더보기" control.
 * The Apollo state carries the place's `VisitorReviewStatsResult` in the 2026 capture's shape (counts
 * and keyword tallies; stars 0 as Naver no longer shows them). Class names follow 2024–26 scrapers'
 * selectors (`place_apply_pui`, `pui__vn15t2`, `pui__blind`, `a.fvwqf`) where they name one [~].
 */
import type { NaverReplicaPlace } from './data';
import {
  type NaverReviewSort,
  naverBlogReviewCount,
  naverImageReviewCount,
  naverKeywordTallies,
  naverReviewTotal,
  naverStarMean,
  naverVotedReviewCount,
} from './reviews';
import { naverReviewsClient, naverReviewsScript, type NaverReviewRenderOptions } from './reviews-client';
import type { NaverReviewsSwitches } from './reviews-switches';
import { type NaverReviewClock, type ServedNaverReview, encodeNaverCursor, servedNaverRange } from './reviews-view';
import { escapeHtml, scriptJsonSafe } from './text';

export interface NaverReviewsPageInput {
  place: NaverReplicaPlace;
  /** The URL's type (`restaurant`, `place`, `hospital`…): the page's links and list requests keep it. */
  type: string;
  /** The order the page opens in (its URL's `reviewSort`). */
  sort: NaverReviewSort;
  switches: NaverReviewsSwitches;
  clock: NaverReviewClock;
}

/** What the page script gets (inlined as JSON; client/reviews-page.js reads it). */
export interface NaverReviewsPageConfig {
  render: NaverReviewRenderOptions;
  /** `/{type}/{id}/review/visitor/list`. */
  listPath: string;
  sort: NaverReviewSort;
  size: number;
  /** Where the second page starts; null when the first holds every review. */
  cursor: string | null;
  more: NaverReviewsSwitches['naverReviewsMore'];
  end: NaverReviewsSwitches['naverReviewsEnd'];
  /** The first page, as rendered (the full texts the expanders show). */
  items: ServedNaverReview[];
}

export function naverReviewsPagePath(type: string, id: string): string {
  return `/${type}/${id}/review/visitor`;
}

export function naverReviewsPageConfig(input: NaverReviewsPageInput): NaverReviewsPageConfig {
  const { place, switches: s } = input;
  const pagePath = naverReviewsPagePath(input.type, place.id);
  const size = s.naverReviewsPage;
  const total = naverReviewTotal(place);
  return {
    render: {
      expander: s.naverReviewsExpander,
      idMode: s.naverReviewsId,
      replyHead: s.naverReviewsReplyHead,
      fullDate: s.naverReviewsFullDate,
      placeName: place.name,
      pagePath,
    },
    listPath: `${pagePath}/list`,
    sort: input.sort,
    size,
    cursor: total > size ? encodeNaverCursor(input.sort, size) : null,
    more: s.naverReviewsMore,
    end: s.naverReviewsEnd,
    // Under idMode 'none' no id is anywhere in the page, this config included (the list request's answers keep theirs, as an API's would).
    items: servedNaverRange(place, input.sort, 0, size, s, input.clock).map((r) => (s.naverReviewsId === 'none' ? { ...r, id: '' } : r)),
  };
}

const count = (n: number) => n.toLocaleString('en-US');

function countsHtml(p: NaverReplicaPlace, pagePath: string, type: string): string {
  return (
    `<div class="dAsGb"><span class="PXMot"><a href="${escapeHtml(pagePath)}">방문자 리뷰 <em>${count(naverReviewTotal(p))}</em></a></span>` +
    `<span class="PXMot"><a href="${escapeHtml(`/${type}/${p.id}/review/ugc`)}">블로그 리뷰 <em>${count(naverBlogReviewCount(p))}</em></a></span></div>`
  );
}

/** "이런 점이 좋았어요": each keyword in quotes, as the page prints it, with how many picked it; none when nobody did. */
function keywordsHtml(p: NaverReplicaPlace): string {
  const tallies = naverKeywordTallies(p);
  if (tallies.length === 0) return '';
  const rows = tallies.map(
    (t) =>
      `<li class="MHaAm"><span class="t3JSf">"${escapeHtml(t.displayName)}"</span><span class="CUoLy"><span class="place_blind">이 키워드를 선택한 인원</span>${count(t.count)}</span></li>`,
  );
  return `<div class="place_section" id="_keyword_section"><div class="place_section_header"><h2 class="place_section_header_title">이런 점이 좋았어요</h2></div><div class="place_section_content"><ul class="K4J8R">${rows.join('')}</ul></div></div>`;
}

/** The place's review stats as the 2026 capture's Apollo state holds them. */
export function naverReviewsApolloState(p: NaverReplicaPlace, s: NaverReviewsSwitches): Record<string, unknown> {
  const key = `VisitorReviewStatsResult:${p.id}`;
  const tallies = naverKeywordTallies(p);
  const total = naverReviewTotal(p);
  return {
    [key]: {
      __typename: 'VisitorReviewStatsResult',
      id: p.id,
      name: p.name,
      review: {
        __typename: 'VisitorReviewStats',
        avgRating: s.naverReviewStars === 'shown' ? naverStarMean(p) : 0,
        totalCount: total,
        scores: [],
        imageReviewCount: naverImageReviewCount(p),
      },
      analysis: {
        __typename: 'VisitorReviewStatsAnalysis',
        votedKeyword: {
          __typename: 'VisitorReviewStatsAnalysisVoteKeyword',
          totalCount: tallies.reduce((n, t) => n + t.count, 0),
          reviewCount: naverVotedReviewCount(p),
          details: tallies.map((t) => ({
            __typename: 'VisitorReviewStatsAnalysisVoteKeywordDetail',
            code: t.code,
            displayName: t.displayName,
            count: t.count,
          })),
        },
      },
      visitorReviewsTotal: total,
    },
    ROOT_QUERY: {
      __typename: 'Query',
      [`placeDetail(${JSON.stringify({ input: { deviceType: 'pcmap', id: p.id, isNx: false } })})`]: {
        __typename: 'PlaceDetail',
        visitorReviewStats: { __ref: key },
        fsasReviews: { __typename: 'FsasReviewsResult', total: naverBlogReviewCount(p) },
      },
    },
  };
}

/** The list section: sort tabs (when on), the first page, the bottom slot; a notice instead when there are no reviews [?]. */
function listHtml(input: NaverReviewsPageInput, config: NaverReviewsPageConfig): string {
  const client = naverReviewsClient();
  const none = config.items.length === 0;
  const tabs = input.switches.naverReviewsSort === 'tabs' && !none ? client.renderNaverSortTabs(config.sort, config.render.pagePath) : '';
  const items = config.items.map((r) => client.renderNaverReview(r, config.render)).join('');
  const notice = none ? '<div class="place_section_no_data">아직 등록된 리뷰가 없습니다.</div>' : '';
  return (
    `<div class="place_section" id="_visitor_review_section"><div class="place_section_header"><h2 class="place_section_header_title">방문자 리뷰</h2>${tabs}</div>` +
    `<div class="place_section_content"><ul id="_review_list">${items}</ul>${notice}<div class="NSTUp">${client.renderNaverMoreSlot(config, config.cursor)}</div></div></div>`
  );
}

export function visitorReviewsHtml(input: NaverReviewsPageInput): string {
  const p = input.place;
  const config = naverReviewsPageConfig(input);
  const title = `<div id="_title"><span class="GHAhO">${escapeHtml(p.name)}</span><span class="lnJFt">${escapeHtml(p.categoryPath[p.categoryPath.length - 1] ?? '')}</span></div>`;
  const body = `<div id="app-root"><div class="place_section no_margin">${title}${countsHtml(p, config.render.pagePath, input.type)}</div>${keywordsHtml(p)}${listHtml(input, config)}</div>`;
  const script =
    `<script id="replica-reviews-config" type="application/json">${scriptJsonSafe(config)}</script>` +
    `<script>(function(){${naverReviewsScript()}\nreplicaNaverReviewsPage(JSON.parse(document.getElementById('replica-reviews-config').textContent), window);})();</script>`;
  return `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>${escapeHtml(p.name)} : 네이버</title></head><body>${body}
<script>window.__APOLLO_STATE__ = ${scriptJsonSafe(naverReviewsApolloState(p, input.switches))};</script>${script}</body></html>`;
}
