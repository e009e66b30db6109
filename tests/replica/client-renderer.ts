/**
 * The search page's script, as text for the page and as functions for Node. One source renders the cards
 * in Chromium and in unit tests, so the tests check exactly what the browser shows.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DomClasses, DomVariant } from './dom-variants';
import type { ReplicaLang } from './locale';

let source: string | null = null;

/** The plain-JS source of client/search-page.js. */
export function searchPageScript(): string {
  // A path, not a URL object: under happy-dom the global URL is not Node's.
  source ??= readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'client', 'search-page.js'), 'utf8');
  return source;
}

export interface CardContext {
  classes: DomClasses;
  /** 1-based rank; the sponsored card is 0. */
  position: number;
  sponsored: boolean;
  broken: boolean;
  /** The page's language (`hl`, locale.ts): English when absent. */
  lang?: ReplicaLang;
}

/** What the server hands the page script (pages.ts inlines it as JSON). */
export interface SearchPageConfig {
  query: string;
  view: { lat: number; lng: number; zoom: number };
  /** Always the real (variant 'a') names; variant 'b' renames them all in the page. */
  classes: DomClasses;
  variant: DomVariant;
  batchDelayMs: number;
  brokenCards: boolean;
  singleResultRedirectMs: number;
  /** Width of the results panel in px (default: the live page's 408). */
  panelWidth?: number;
  /** The page's language, from its `hl` (locale.ts replicaLang): English when absent. */
  lang?: ReplicaLang;
}

/**
 * The parts of `window` the page script uses; a test can pass a fake
 * (document, size, XMLHttpRequest, setTimeout, location, history).
 */
export type PageWindow = object;

export interface ClientRenderer {
  replicaSearchPage(config: SearchPageConfig, win: PageWindow): void;
  renderCard(P: unknown[], ctx: CardContext): string;
  renderSpinner(classes: DomClasses): string;
  renderEnd(classes: DomClasses, lang?: ReplicaLang): string;
  renderFeedShell(query: string, classes: DomClasses, lang?: ReplicaLang): string;
  renderNotFound(query: string, classes: DomClasses, lang?: ReplicaLang): string;
  cardHref(P: unknown[], sponsored: boolean, lang?: ReplicaLang): string;
  /** Whether the card prints the phone `P[178]` carries (it leaves it off one card in five). */
  cardShowsPhone(P: unknown[]): boolean;
  /** Variant 'b': every obfuscated class in `class="…"` attributes replaced, stable hooks kept. */
  renameClasses(html: string): string;
  renameCss(css: string): string;
  renamedClass(token: string): string;
  searchRequestUrl(query: string, view: { lat: number; lng: number; zoom: number }, width: number, height: number, page: number, lang?: ReplicaLang): string;
}

let renderer: ClientRenderer | null = null;

export function clientRenderer(): ClientRenderer {
  renderer ??= new Function(
    `${searchPageScript()}\nreturn { replicaSearchPage, renderCard, renderSpinner, renderEnd, renderFeedShell, renderNotFound, cardHref, cardShowsPhone, searchRequestUrl, renameClasses, renameCss, renamedClass };`,
  )() as ClientRenderer;
  return renderer;
}
