/**
 * Class names per DOM variant. Variant 'a' uses the obfuscated names of the real page (map-pages-spec §1.2,
 * §1.6; the 2025-11 capture). Variant 'b' renames every obfuscated class, as Google does every few months,
 * and keeps only the stable hooks: roles, aria-labels, data-item-id, data-value, hrefs, texts — and
 * `span.UsdlK`, which the brief counts among the stable hooks.
 */
export type DomVariant = 'a' | 'b';

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

export const DOM_VARIANTS: Record<DomVariant, DomClasses> = {
  a: {
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
  },
  b: {
    main: 'Qx7Hpe LmWn0c',
    feed: 'Rb4Tqe Yw2kLp Jd0Zsa',
    card: 'Tq8Wme Kd3Vbn',
    cardLink: 'Xy3Lrk',
    cardBody: 'Pn5Gwq',
    cardText: 'Ac9Tze fontBodyMedium',
    nameWrap: 'Hd2Qxe',
    name: 'Vm4Rsa fontHeadlineSmall',
    info: 'Lk8Pwe',
    ratingLine: 'Zr4Nqb',
    ratingWrap: 'Gt6Hsm fontBodyMedium',
    stars: 'Bq2Wvx',
    ratingValue: 'Fs8Lnc',
    reviewCount: 'Oe1Rtm',
    phone: 'UsdlK',
    actions: 'Mu6Vfa',
    actionButton: 'Jw3Xeb',
    sponsoredWrap: 'Kp7Rdu',
    sponsored: 'Ye5Kdo',
    separator: 'Cg7Ubv',
    spinner: 'Dn2Pwk',
    endWrap: 'Hs3Ljq',
    endBox: 'Qk5Rtz',
    endText: 'Wp9Mxe',
    updateToggle: 'Fz6Npc fontBodyMedium',
    notFound: 'Ub8Kcr fontHeadlineSmall',
    placeTitle: 'Yt4Mzo fontHeadlineLarge',
    placeRating: 'Kc2Wqa',
    placeStars: 'Pe9Vhr',
    placeCategory: 'Ra7Nkt',
    placeInfoButton: 'Gx5Lmq',
    placeInfoText: 'Nd4Fsb fontBodyMedium',
  },
};
