/**
 * Class names of the pages. Variant 'a' is the real page's obfuscated names (map-pages-spec §1.2, §1.6;
 * the 2025-11 capture). Variant 'b' is the same page with every obfuscated class renamed, as Google does
 * every few months (client/search-page.js `renameClasses`); only the stable hooks stay: roles, aria-labels,
 * data-item-id, data-value, hrefs, texts — and `span.UsdlK`, which the brief counts among the hooks.
 */
import { clientRenderer } from './client-renderer';

export type DomVariant = 'a' | 'b';
export const DOM_VARIANT_NAMES: readonly DomVariant[] = ['a', 'b'];

export interface DomClasses {
  main: string;
  feed: string;
  card: string;
  cardLink: string;
  cardBody: string;
  cardText: string;
  nameWrap: string;
  name: string;
  info: string;
  ratingLine: string;
  ratingWrap: string;
  stars: string;
  ratingValue: string;
  reviewCount: string;
  phone: string;
  actions: string;
  actionButton: string;
  sponsoredWrap: string;
  sponsored: string;
  separator: string;
  spinner: string;
  endWrap: string;
  endBox: string;
  endText: string;
  updateToggle: string;
  notFound: string;
  placeTitle: string;
  placeRating: string;
  placeStars: string;
  placeCategory: string;
  placeInfoButton: string;
  placeInfoText: string;
}

/** The real page's names (variant 'a'). */
export const REAL_CLASSES: DomClasses = {
  main: 'm6QErb WNBkOb XiKgde',
  feed: 'm6QErb DxyBCb kA9KIf dS8AEf XiKgde ecceSd',
  card: 'Nv2PK THOPZb CpccDe',
  cardLink: 'hfpxzc',
  cardBody: 'bfdHYd Ppzolf OFBs3e',
  cardText: 'UaQhfb fontBodyMedium',
  nameWrap: 'NrDZNb',
  name: 'qBF1Pd fontHeadlineSmall',
  info: 'W4Efsd',
  ratingLine: 'AJB7ye',
  ratingWrap: 'e4rVHe fontBodyMedium',
  stars: 'ZkP5Je',
  ratingValue: 'MW4etd',
  reviewCount: 'UY7F9',
  phone: 'UsdlK',
  actions: 'Rwjeuc',
  actionButton: 'lcr4fd S9kvJb',
  sponsoredWrap: 'hHbUWd',
  sponsored: 'jHLihd lV5Ihd',
  separator: 'TFQHme',
  spinner: 'lXJj5c Hk4XGb',
  endWrap: 'm6QErb XiKgde tLjsW eKbjU',
  endBox: 'PbZDve',
  endText: 'HlvSq',
  updateToggle: 'DuI1J Hk4XGb fontBodyMedium',
  notFound: 'Q2vNVc fontHeadlineSmall',
  placeTitle: 'DUwDvf lfPIob',
  placeRating: 'F7nice',
  placeStars: 'ceNzKf',
  placeCategory: 'DkEaL',
  placeInfoButton: 'CsEnBe',
  placeInfoText: 'Io6YTe fontBodyMedium kR99db fdkmkc',
};

/**
 * The place page's tabs and Reviews panel (client/place-page.js). The card's names are the ones public
 * review scrapers select (`div.jftiEf` card, `div.d4r55` author, `span.rsqaWe` date, `span.wiI7pd`
 * text, `div.CDe7pd` owner's response with its `span.DZSIDd` date and `div.wiI7pd` text — so the
 * owner's text shares the review text's class); the panel's are stand-ins. The page's script gets
 * them in its config, renamed for variant 'b'.
 */
export interface ReviewClasses {
  /** The overview tab's scrollable content (the information rows; signed out, five reviews). */
  overview: string;
  overviewReviews: string;
  /** The Reviews tab's scrollable panel. */
  scroller: string;
  summary: string;
  summaryBox: string;
  histogram: string;
  histogramRow: string;
  histogramBar: string;
  sortBar: string;
  sortButton: string;
  menu: string;
  menuItem: string;
  chips: string;
  chip: string;
  list: string;
  card: string;
  head: string;
  avatar: string;
  author: string;
  meta: string;
  stars: string;
  star: string;
  starOn: string;
  date: string;
  body: string;
  text: string;
  more: string;
  seeMore: string;
  translation: string;
  toggle: string;
  photos: string;
  photo: string;
  reply: string;
  replyHead: string;
  replyDate: string;
  tail: string;
  progress: string;
  end: string;
}

export const REVIEW_CLASSES: ReviewClasses = {
  overview: 'w6VYqd',
  overviewReviews: 'XJ8kHb',
  scroller: 'm6QErb DxyBCb kA9KIf dS8AEf XiKgde',
  summary: 'PPCwl',
  summaryBox: 'jANrlb',
  histogram: 'ExlQHd',
  histogramRow: 'BHOKXe',
  histogramBar: 'oxIpGd',
  sortBar: 'm6QErb Hk4XGb XiKgde tLjsW',
  sortButton: 'g88MCb S9kvJb',
  menu: 'fontBodyLarge yu5kgd',
  menuItem: 'fxNQSd',
  chips: 'KNfEk',
  chip: 'e2moi',
  list: 'XdBhzc',
  card: 'jftiEf fontBodyMedium',
  head: 'WNxzHc qLhwHc',
  avatar: 'WEBjve',
  author: 'd4r55',
  meta: 'DU9Pgb',
  stars: 'kvMYJc',
  star: 'hCCjke google-symbols NhBTye',
  starOn: 'elGi1d',
  date: 'rsqaWe',
  body: 'MyEned',
  text: 'wiI7pd',
  more: 'w8nwRe kyuRq',
  seeMore: 'review-more-link',
  translation: 'fontBodySmall RgZ2Hd',
  toggle: 'kyuRq',
  photos: 'KtCyie',
  photo: 'Tya61d',
  reply: 'CDe7pd',
  replyHead: 'nM6d2c',
  replyDate: 'DZSIDd',
  tail: 'wNNZR',
  progress: 'qjESne',
  end: 'Vv8uLe',
};

/** The names a variant's page carries (for tests and for reading a page by hand). */
export function classesFor(variant: DomVariant): DomClasses {
  return inVariantNames(REAL_CLASSES, variant);
}

export function reviewClassesFor(variant: DomVariant): ReviewClasses {
  return inVariantNames(REVIEW_CLASSES, variant);
}

function inVariantNames<T extends object>(classes: T, variant: DomVariant): T {
  if (variant === 'a') return classes;
  const rename = (list: string): string =>
    list
      .split(' ')
      .map((c) => clientRenderer().renamedClass(c))
      .join(' ');
  return Object.fromEntries(Object.entries(classes).map(([k, v]) => [k, rename(v as string)])) as T;
}
