/**
 * What the contacts pass (issue 23) reads from a business's own website, as plain data. The
 * readers (utils/contacts/read-*.ts) produce these from a page's bytes; the pass
 * (utils/contacts/pass.ts) stores one ContactResult per place key. No browser, no store here.
 */

/** The social networks the pass keeps one profile of, each an export column. */
export const SOCIAL_NETWORKS = [
  'instagram',
  'facebook',
  'x',
  'youtube',
  'tiktok',
  'linkedin',
  'kakao_channel',
  'naver_blog',
  'naver_cafe',
  'naver_smartstore',
  'band',
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** How an e-mail address was written on the page. */
/** `structured`: the page's own schema.org data (`<script type="application/ld+json">`). */
export type EmailWriting = 'mailto' | 'text' | 'obfuscated' | 'cfemail' | 'structured';

/** One address found on one page. */
export interface FoundEmail {
  /** The local part as written, the domain lower-cased: `Info@Cafe.CO.KR` → `Info@cafe.co.kr`. */
  email: string;
  /** The page (final URL, after redirects) it was read on. */
  page: string;
  how: EmailWriting;
}

export interface SocialProfile {
  network: SocialNetwork;
  /** The profile's normalised URL: https, no tracking parameters, no fragment. */
  url: string;
  page: string;
}

/** A link of the page, absolute, with the words a person sees on it. */
export interface PageLink {
  href: string;
  text: string;
}

/** Everything one HTML page gives the pass. */
export interface PageReading {
  emails: FoundEmail[];
  socials: SocialProfile[];
  /** Phone numbers as written (tel: links and text, utils/contacts/phones.ts), each once by its digits. */
  phones: string[];
  /**
   * Every http(s) link of the page in document order (absolute against `<base href>` when the page
   * has one, fragment dropped), for choosing contact pages. Cloudflare's e-mail links are not links.
   */
  links: PageLink[];
  /** `<meta http-equiv="refresh" content="0; url=…">` target, absolute, when the page has one. */
  refreshTo: string | null;
  /** `<frame src>` / `<iframe src>` targets, absolute: an old frameset home page's content is there. */
  frames: string[];
}

/**
 * A platform a listing's "website" can be instead of the business's own site, named as a person
 * names it (it is shown in the visit's notes): a map, a booking page, a link-in-bio page, or a
 * social network's page that is not a profile (a post, a share link).
 */
export type WebsitePlatform =
  | 'Naver Map'
  | 'Naver Booking'
  | 'Kakao Map'
  | 'Google Maps'
  | 'CatchTable'
  | 'Linktree'
  | 'Litt.ly'
  | 'Instabio'
  | 'Beacons'
  | 'Inpock'
  | 'Lnk.Bio'
  | 'Instagram'
  | 'Facebook'
  | 'X'
  | 'YouTube'
  | 'TikTok'
  | 'LinkedIn'
  | 'Kakao Channel'
  | 'Naver Blog'
  | 'Naver Cafe'
  | 'Naver Smartstore'
  | 'Band';

/** Why a "website" is not fetched at all. */
export type InvalidWebsite = 'not a URL' | 'not http(s)' | 'a URL with a user name or password' | 'a local or private host';

/** What a website is, before anything is fetched. */
export type WebsiteKind =
  /** The business's own site: `url` absolute, host lower-cased, fragment dropped. */
  | { kind: 'site'; url: string }
  /** The "website" is itself a social profile: recorded as that profile, not fetched. */
  | { kind: 'social'; profile: Omit<SocialProfile, 'page'> }
  /** A map, booking or link-in-bio platform page: recorded as such, not fetched. */
  | { kind: 'platform'; platform: WebsitePlatform }
  | { kind: 'invalid'; reason: InvalidWebsite };
