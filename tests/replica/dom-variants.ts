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

/** The names a variant's page carries (for tests and for reading a page by hand). */
export function classesFor(variant: DomVariant): DomClasses {
  if (variant === 'a') return REAL_CLASSES;
  const rename = (list: string): string =>
    list
      .split(' ')
      .map((c) => clientRenderer().renamedClass(c))
      .join(' ');
  return Object.fromEntries(Object.entries(REAL_CLASSES).map(([k, v]) => [k, rename(v)])) as unknown as DomClasses;
}
