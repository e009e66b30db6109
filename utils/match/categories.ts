/**
 * Broad kinds of business, read from the words of each site's own category (Google's English
 * or Korean label, Naver's `카페,디저트`, Kakao's `음식점 > 카페`). Two listings of one business
 * can carry different labels (`Coffee shop` / `카페`), but rarely different kinds: a pharmacy
 * is not a dentist. A label none of these words names has no kind and is no evidence.
 */
const FAMILIES: ReadonlyArray<[family: string, words: RegExp]> = [
  ['cafe', /cafe|café|coffee|espresso|tea house|dessert|카페|커피|디저트|찻집|티하우스/i],
  ['bakery', /bakery|bake shop|pastry|제과|베이커리|빵|떡/i],
  ['bar', /\bbar\b|pub|brewery|izakaya|wine bar|술집|호프|주점|포차|이자카야|와인바|bar$/i],
  ['restaurant', /restaurant|diner|bistro|eatery|noodle|bbq|barbecue|grill|음식점|식당|한식|중식|일식|양식|분식|고기|국밥|국수|냉면|요리|치킨|피자|레스토랑/i],
  ['pharmacy', /pharmacy|drugstore|chemist|약국/i],
  ['dentist', /dentist|dental|치과/i],
  // Departments are named `…과` (소아청소년과, 산부인과, 정형외과); 치과 is the dentist, above.
  ['clinic', /clinic|hospital|medical|doctor|physician|pediatric|dermatolog|의원|병원|내과|외과|소아과|청소년과|산부인과|한의원|피부과|안과|이비인후과|비뇨/i],
  ['hair', /hair|barber|beauty salon|salon|미용|헤어|이발/i],
  ['convenience', /convenience|편의점|mart|마트|grocery|슈퍼/i],
  ['gym', /gym|fitness|pilates|yoga|헬스|피트니스|필라테스|요가|체육관/i],
  ['bank', /\bbank\b|atm|은행/i],
  ['lodging', /hotel|motel|hostel|guest ?house|호텔|모텔|게스트하우스|숙박|펜션/i],
];

/** A site's labels are a vocabulary of a few thousand: each label's kinds are read once (bounded, like names.ts). */
const LABELS_KEPT = 5_000;
const LABELS = new Map<string, readonly string[]>();

function familiesOfLabel(label: string): readonly string[] {
  let kinds = LABELS.get(label);
  if (kinds) return kinds;
  if (LABELS.size >= LABELS_KEPT) LABELS.clear();
  kinds = FAMILIES.filter(([, words]) => words.test(label)).map(([family]) => family);
  LABELS.set(label, kinds);
  return kinds;
}

/** The kinds a listing's category words name (a bakery-cafe names both). */
export function familiesOf(categories: readonly (string | null | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const c of categories) if (c) for (const family of familiesOfLabel(c)) out.add(family);
  return out;
}

/** Whether two listings' kinds agree (share one), disagree (both known, none shared), or cannot tell. */
export function categoryAgreement(a: ReadonlySet<string>, b: ReadonlySet<string>): 'same' | 'different' | 'unknown' {
  if (a.size === 0 || b.size === 0) return 'unknown';
  for (const f of a) if (b.has(f)) return 'same';
  return 'different';
}
