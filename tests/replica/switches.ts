/**
 * Behaviours a test can turn on in the replica, one at a time or together (`replica.setSwitches`).
 */
import { DOM_VARIANT_NAMES, type DomVariant } from './dom-variants';
import { REVIEW_CHOICES, type ReviewsSwitches } from './reviews-view';
import type { SearchSwitches } from './search';
import { SEARCH_GEOMETRIES, type SearchGeometry } from './geometry';
import { SHARE_REDIRECTS, type ShareRedirect } from './share-links';

/**
 * Where a maps.app.goo.gl link lands [?]: the place page URL with the share's query (`place`, as
 * public landing URLs show it), or the bare `/maps?cid={cid}` form (older shares and "open in Maps").
 */
export const GOOGLE_SHARE_LANDINGS = ['place', 'cid'] as const;
export type GoogleShareLanding = (typeof GOOGLE_SHARE_LANDINGS)[number];

/** The Reviews tab's unconfirmed forms are in ReviewsSwitches (reviews-view.ts); `signedIn: false` is its limited view. */
export interface Switches extends Required<SearchSwitches>, ReviewsSwitches {
  /** Class-name set of the pages (stable hooks are the same in both). */
  domVariant: DomVariant;
  /** Requests (page loads + XHRs) per rolling minute before the sorry page; null = never. */
  captchaAfter: number | null;
  /** Page loads without a SOCS cookie go to consent.google.com first. */
  consent: boolean;
  /** Delay before every response. */
  slowMs: number;
  /** Seeded share of `/maps/search` page loads answering HTTP 500. */
  error500Rate: number;
  /** Paths (prefixes) of /maps/search pages that always answer HTTP 500. */
  error500Paths: string[];
  /** Paths (prefixes) whose page never finishes: headers sent, body never ends. */
  hangPaths: string[];
  /** Seeded share of `/maps/*` page loads that hang the same way. */
  hangRate: number;
  /** How long the feed's spinner row shows before the next batch. */
  batchDelayMs: number;
  /** Cards keep role=article but lose their href and aria-labels (a site change that breaks extraction). */
  brokenCards: boolean;
  /** One sponsored card on top repeating an organic place. */
  sponsored: boolean;
  /** Delay of the single-result redirect to the place page. */
  singleResultRedirectMs: number;
  /** How maps.app.goo.gl sends a share link on (share-links.ts). */
  shareRedirect: ShareRedirect;
  shareLanding: GoogleShareLanding;
  /**
   * How `/maps?cid=` reaches the place (../shared/map-pages-spec.md "By CID" says only that it
   * opens the place): the page served there rewrites its own address in place (history), or the
   * server sends the browser to the place URL (302).
   */
  cidPage: CidPage;
}

export const CID_PAGES = ['rewrite', 'redirect'] as const;
export type CidPage = (typeof CID_PAGES)[number];

export const DEFAULT_SWITCHES: Readonly<Switches> = Object.freeze({
  signedIn: true,
  sparseZoomOut: true,
  geometry: 'right-of-panel',
  panelWidth: 408,
  domVariant: 'a',
  captchaAfter: null,
  consent: false,
  slowMs: 0,
  error500Rate: 0,
  error500Paths: [],
  hangPaths: [],
  hangRate: 0,
  batchDelayMs: 800,
  brokenCards: false,
  sponsored: true,
  singleResultRedirectMs: 1500,
  shareRedirect: '302',
  shareLanding: 'place',
  cidPage: 'rewrite',
  reviewsBatchSize: 10,
  reviewsSort: 'menu',
  reviewsDefaultSort: 'relevant',
  reviewsExpander: 'more',
  reviewsIdLocation: 'card',
  reviewsEnd: 'nothing',
  reviewsTranslated: true,
  reviewsJitterMs: 0,
});

/**
 * `current` with `partial` applied, or an Error listing every bad field (then nothing changes).
 * Unknown keys are errors too: a typo must not silently test the default.
 */
export function mergeSwitches(current: Readonly<Switches>, partial: Partial<Switches>): Switches {
  const problems: string[] = [];
  const next: Switches = { ...current, hangPaths: [...current.hangPaths], error500Paths: [...current.error500Paths] };
  for (const [key, value] of Object.entries(partial ?? {})) {
    if (value === undefined) continue;
    switch (key) {
      case 'signedIn':
      case 'sparseZoomOut':
      case 'consent':
      case 'brokenCards':
      case 'sponsored':
      case 'reviewsTranslated':
        if (typeof value !== 'boolean') problems.push(`${key} must be a boolean`);
        else next[key] = value;
        break;
      case 'domVariant':
        if (!DOM_VARIANT_NAMES.includes(value as DomVariant)) problems.push(`domVariant must be one of ${DOM_VARIANT_NAMES.join(', ')}`);
        else next.domVariant = value as DomVariant;
        break;
      case 'geometry':
        if (!SEARCH_GEOMETRIES.includes(value as SearchGeometry)) problems.push(`geometry must be one of ${SEARCH_GEOMETRIES.join(', ')}`);
        else next.geometry = value as SearchGeometry;
        break;
      case 'panelWidth':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 1000)
          problems.push('panelWidth must be an integer number of px in [0, 1000]');
        else next.panelWidth = value;
        break;
      case 'captchaAfter':
        if (value !== null && !(Number.isInteger(value) && (value as number) >= 0)) problems.push('captchaAfter must be null or an integer >= 0');
        else next.captchaAfter = value as number | null;
        break;
      case 'slowMs':
      case 'batchDelayMs':
      case 'singleResultRedirectMs':
      case 'reviewsJitterMs':
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 600_000) problems.push(`${key} must be a number of ms in [0, 600000]`);
        else next[key] = value;
        break;
      case 'error500Rate':
      case 'hangRate':
        if (typeof value !== 'number' || !(value >= 0 && value <= 1)) problems.push(`${key} must be a number in [0, 1]`);
        else next[key] = value;
        break;
      case 'hangPaths':
      case 'error500Paths':
        if (!Array.isArray(value) || !value.every((p) => typeof p === 'string' && p.startsWith('/')))
          problems.push(`${key} must be an array of paths starting with "/"`);
        else next[key] = [...(value as string[])];
        break;
      case 'shareRedirect':
        if (!SHARE_REDIRECTS.includes(value as ShareRedirect)) problems.push(`shareRedirect must be one of ${SHARE_REDIRECTS.join(', ')}`);
        else next.shareRedirect = value as ShareRedirect;
        break;
      case 'shareLanding':
        if (!GOOGLE_SHARE_LANDINGS.includes(value as GoogleShareLanding)) problems.push(`shareLanding must be one of ${GOOGLE_SHARE_LANDINGS.join(', ')}`);
        else next.shareLanding = value as GoogleShareLanding;
        break;
      case 'cidPage':
        if (!CID_PAGES.includes(value as CidPage)) problems.push(`cidPage must be one of ${CID_PAGES.join(', ')}`);
        else next.cidPage = value as CidPage;
        break;
      case 'reviewsBatchSize':
      case 'reviewsSort':
      case 'reviewsDefaultSort':
      case 'reviewsExpander':
      case 'reviewsIdLocation':
      case 'reviewsEnd': {
        const allowed: readonly unknown[] = REVIEW_CHOICES[key];
        if (!allowed.includes(value)) problems.push(`${key} must be one of ${allowed.join(', ')}`);
        else next[key] = value as never;
        break;
      }
      default:
        problems.push(`unknown switch "${key}"`);
    }
  }
  if (problems.length) throw new Error(`replica switches: ${problems.join('; ')}`);
  return next;
}
