/**
 * The replica's search page script (tests/replica/client) run in this file's happy-dom document, with
 * its list requests answered in-process by the server's own function (so no browser and no network)
 * and its timers queued until `settle()`.
 */
import type { MapView } from '../../utils/geo/types';
import { clientRenderer } from '../replica/client-renderer';
import { type DomVariant, REAL_CLASSES } from '../replica/dom-variants';
import type { SearchSwitches } from '../replica/search';
import { answerSearchXhr } from '../replica/search-xhr';
import type { World } from '../replica/world';

export interface ReplicaSearchRun {
  /** The list requests the page made, in order. */
  requests: string[];
  /** URLs passed to `location.replace`. */
  replacedWith: string[];
  /** URLs passed to `history.replaceState`. */
  urls: string[];
  /** The page's URL now (https://www.google.com…). */
  url(): string;
  /** Where the page navigated by setting `location.href`, if it did. */
  navigatedTo: () => string | null;
  /** Run queued timers and request answers until nothing is left. */
  settle(): void;
  scrollFeed(): void;
  /** From now on every list request answers the 429 sorry page. */
  block(): void;
}

export function openReplicaSearch(
  w: World,
  query: string,
  view: MapView,
  opts: { switches: SearchSwitches & { sponsored: boolean }; variant?: DomVariant },
): ReplicaSearchRun {
  document.body.innerHTML = '<div role="main"></div><div class="replica-pins"></div>';
  const tasks: (() => void)[] = [];
  const requests: string[] = [];
  const replacedWith: string[] = [];
  const urls: string[] = [];
  let blocked = false;
  const { switches } = opts;
  const location = {
    pathname: `/maps/search/${encodeURIComponent(query)}/@${view.lat},${view.lng},${view.zoom}z`,
    search: '?hl=en',
    hash: '',
    href: '',
    replace: (url: string) => replacedWith.push(url),
  };
  class FakeXhr {
    url = '';
    status = 0;
    responseText = '';
    responseURL = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open(_method: string, url: string): void {
      this.url = url;
    }
    send(): void {
      requests.push(this.url);
      tasks.push(() => {
        if (blocked) {
          this.status = 429;
          this.responseURL = 'https://www.google.com/sorry/index?continue=x&q=y';
          this.responseText = '<html>unusual traffic</html>';
        } else {
          const answer = answerSearchXhr(w, switches, new URLSearchParams(this.url.split('?')[1]));
          this.status = answer.status;
          this.responseText = answer.body;
          this.responseURL = `https://www.google.com${this.url}`;
        }
        this.onload?.();
      });
    }
  }
  const win = {
    document,
    innerWidth: 1280,
    innerHeight: 800,
    XMLHttpRequest: FakeXhr,
    setTimeout: (fn: () => void) => tasks.push(fn),
    location,
    history: {
      state: null,
      replaceState: (_state: unknown, _title: string, url: string) => {
        urls.push(url);
        location.pathname = url.split('?')[0]!;
      },
    },
  };
  clientRenderer().replicaSearchPage(
    { query, view, classes: REAL_CLASSES, variant: opts.variant ?? 'a', batchDelayMs: 500, brokenCards: false, singleResultRedirectMs: 1500 },
    win,
  );
  return {
    requests,
    replacedWith,
    urls,
    url: () => `https://www.google.com${location.pathname}${location.search}`,
    navigatedTo: () => location.href || null,
    settle() {
      for (let guard = 0; tasks.length && guard < 1000; guard++) tasks.shift()!();
    },
    scrollFeed() {
      document.querySelector('[role="feed"]')!.dispatchEvent(new Event('scroll'));
    },
    block() {
      blocked = true;
    },
  };
}
