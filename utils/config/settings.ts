import type { SweepSettings } from '../domain/sweep';

/**
 * Languages the results can be asked in (Google's `hl` codes), with their own names for the
 * options page. The extractor reads pages in every one of them (utils/providers/google/labels.ts).
 */
export const RESULT_LANGUAGES: readonly { code: string; name: string }[] = [
  { code: 'ko', name: '한국어' },
  { code: 'en', name: 'English' },
  { code: 'ja', name: '日本語' },
  { code: 'fr', name: 'Français' },
  { code: 'de', name: 'Deutsch' },
  { code: 'el', name: 'Ελληνικά' },
  { code: 'zh-CN', name: '中文(简体)' },
  { code: 'zh-TW', name: '中文(繁體)' },
];

const BY_CODE = new Map(RESULT_LANGUAGES.map((l) => [l.code.toLowerCase(), l.code]));

/**
 * A browser locale ("ko-KR", "en_US", "zh-Hant-TW") as one of RESULT_LANGUAGES' `hl` codes;
 * English when the language is not one of them.
 */
export function hlFromLocale(locale: string | null | undefined): string {
  const tag = String(locale ?? '')
    .trim()
    .replace(/_/g, '-')
    .toLowerCase();
  if (!tag) return 'en';
  if (tag.startsWith('zh')) return /-(tw|hk|mo)\b|hant/.test(tag) ? 'zh-TW' : 'zh-CN';
  return BY_CODE.get(tag.split('-')[0]!) ?? 'en';
}

/** The browser's UI language (navigator.language in pages and the service worker alike). */
function uiLocale(): string | undefined {
  const nav = (globalThis as { navigator?: { language?: string } }).navigator;
  return typeof nav?.language === 'string' ? nav.language : undefined;
}

/**
 * The place-details pass (issue 16, utils/details): after a sweep finishes, open each place's
 * own page (one paced load per place) for what the list lacked. Off by default: it costs a page
 * load per place. A setting like the others, copied into each sweep when it starts, so a sweep
 * does what was shown (and estimated) before its Start. (SweepSettings itself does not declare
 * it yet; sweeps from before it lack it, which reads as off: utils/details/wire.ts placeDetailsOn.)
 */
export interface DetailsSetting {
  placeDetails: boolean;
}

/**
 * The contacts pass (issue 23, utils/contacts): e-mails and social profiles from each business's
 * own website. Off by default, and on only with the user's grant of the optional host permission
 * (the options page asks for it when the box is ticked). A visited website is visited again
 * after `contactsRecheckDays`.
 */
export interface ContactsSetting {
  contactsFromWebsites: boolean;
  contactsRecheckDays: number;
}

/**
 * The reviews pass (issue 38, utils/reviews): after a sweep (and its place details), read each
 * place's reviews on its own site, newest first, at most `reviewsPerPlace` each. Off by default:
 * it costs several paced steps per place. The reviewer's name is personal data: kept only with
 * `reviewsKeepAuthor`, off by default. Copied into each sweep when it starts, like the others.
 */
export interface ReviewsSetting {
  reviews: boolean;
  reviewsPerPlace: number;
  /** Only reviews from this day on (YYYY-MM-DD), newest first; '' for no date limit. */
  reviewsSince: string;
  reviewsKeepAuthor: boolean;
}

/**
 * The least delay between two requests to a map host: a site that sees a browser ask faster
 * may block it (a captcha, Naver's "과도한 접근 요청", Kakao's 500 page) for everybody on that
 * connection. Below it only with `belowFloorAccepted`, the options page's explicit "I accept the
 * risk" checkbox, never by typing a smaller number: a delay read or saved without it is raised to
 * the floor (a 0 stored by an old version included).
 */
export const DELAY_FLOOR_MS = 2000;

/**
 * Filters (issue 40, utils/filters): which stored places count, are exported and are worth the
 * paid passes (place details, contacts, reviews). A sweep still searches every cell: a filter
 * cannot prove a cell complete. Word lists are matched on each site's own category text and
 * categories list, or on the name (utils/filters/words.ts); a null number is no minimum. Inactive
 * by default (NO_FILTER), copied into each sweep when it starts, like every setting here.
 */
export interface PlaceFilter {
  /** Keep a place whose category text matches any of these (empty: every category). */
  categories: readonly string[];
  /** Leave out a place whose category text matches any of these. */
  excludeCategories: readonly string[];
  /** Leave out a place whose name matches any of these (a chain, a brand). */
  excludeNames: readonly string[];
  /** The lowest rating kept (0–5), or null for none. */
  minRating: number | null;
  /** The fewest reviews kept, or null for none. */
  minReviews: number | null;
  website: 'any' | 'has' | 'none';
  phone: 'any' | 'has';
  /** 'open-only': leave out places the site marks closed, for good or for now. */
  status: 'any' | 'open-only';
}

export interface FiltersSetting {
  filters: PlaceFilter;
}

/** What a filter may hold (utils/filters/check.ts refuses more; normaliseFilter cuts to it). */
export const FILTER_LIMITS = {
  /** Words per list. */
  words: 50,
  /** Characters per word. */
  wordChars: 60,
  rating: [0, 5],
  reviews: [0, 1_000_000],
} as const;

export const FILTER_CHOICES = {
  website: ['any', 'has', 'none'],
  phone: ['any', 'has'],
  status: ['any', 'open-only'],
} as const satisfies { [K in 'website' | 'phone' | 'status']: readonly PlaceFilter[K][] };

/** No filter: every place passes. */
export const NO_FILTER: PlaceFilter = Object.freeze({
  categories: Object.freeze([]) as readonly string[],
  excludeCategories: Object.freeze([]) as readonly string[],
  excludeNames: Object.freeze([]) as readonly string[],
  minRating: null,
  minReviews: null,
  website: 'any',
  phone: 'any',
  status: 'any',
});

/**
 * A word list as typed (comma-separated text, the Korean `、` and full-width `，` too) or as stored
 * (a list): each word trimmed, inner spaces made one, empty ones dropped, repeats (case- and
 * width-insensitive) dropped. Null when it is neither text nor a list of texts.
 */
export function splitFilterWords(value: unknown): string[] | null {
  let pieces: unknown[];
  if (typeof value === 'string') pieces = value.split(/[,，、\n]/);
  else if (Array.isArray(value)) pieces = value;
  else return null;
  if (!pieces.every((p) => typeof p === 'string')) return null;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const piece of pieces as string[]) {
    const word = piece.replace(/\s+/g, ' ').trim();
    const key = word.normalize('NFKC').toLowerCase();
    if (!word || seen.has(key)) continue;
    seen.add(key);
    out.push(word);
  }
  return out;
}

/** A number of a filter from storage: in range (clamped), or null for none; 0 is no minimum either. */
function filterNumber(value: unknown, [lo, hi]: readonly [number, number], whole: boolean): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const n = Math.min(hi, Math.max(lo, whole ? Math.round(value) : value));
  return n > 0 ? n : null;
}

const choiceOf = <T extends string>(value: unknown, choices: readonly T[]): T => (choices.includes(value as T) ? (value as T) : choices[0]!);

/**
 * Filters from storage or a message (possibly old or hand-edited), never refused: words past
 * the limits dropped (a list cut to FILTER_LIMITS.words, a word longer than wordChars left
 * out), numbers clamped, an unknown choice read as 'any'. What the options page saves went
 * through utils/filters checkFilter first, which refuses such input with its reason instead.
 */
export function normaliseFilter(raw: unknown): PlaceFilter {
  if (!raw || typeof raw !== 'object') return { ...NO_FILTER, categories: [], excludeCategories: [], excludeNames: [] };
  const given = raw as Record<string, unknown>;
  const words = (v: unknown) => (splitFilterWords(v) ?? []).filter((w) => w.length <= FILTER_LIMITS.wordChars).slice(0, FILTER_LIMITS.words);
  return {
    categories: words(given.categories),
    excludeCategories: words(given.excludeCategories),
    excludeNames: words(given.excludeNames),
    minRating: filterNumber(given.minRating, FILTER_LIMITS.rating, false),
    minReviews: filterNumber(given.minReviews, FILTER_LIMITS.reviews, true),
    website: choiceOf(given.website, FILTER_CHOICES.website),
    phone: choiceOf(given.phone, FILTER_CHOICES.phone),
    status: choiceOf(given.status, FILTER_CHOICES.status),
  };
}

export interface PacingRiskSetting {
  /** The user accepted the risk of a delay below DELAY_FLOOR_MS. */
  belowFloorAccepted: boolean;
}

/**
 * Polite defaults: one page load at a time per map host, at least 2 s apart plus up to
 * 1.5 s of jitter, so a sweep looks like a patient person rather than a crawler.
 * Results come in the browser's language.
 */
export const DEFAULT_SETTINGS: AllSettings = {
  delayMs: 2000,
  jitterMs: 1500,
  cellTimeoutMs: 120_000,
  scrollPauseMs: 800,
  maxAttempts: 4,
  workers: 1,
  dedicatedWindow: false,
  maxCells: 20_000,
  lang: hlFromLocale(uiLocale()),
  placeDetails: false,
  belowFloorAccepted: false,
  contactsFromWebsites: false,
  contactsRecheckDays: 30,
  reviews: false,
  reviewsPerPlace: 50,
  reviewsSince: '',
  reviewsKeepAuthor: false,
  filters: NO_FILTER,
};

/** Every option the options page stores under `settings`. */
export type AllSettings = SweepSettings & DetailsSetting & PacingRiskSetting & ContactsSetting & ReviewsSetting & FiltersSetting;

const LIMITS: { [K in keyof AllSettings]-?: AllSettings[K] extends number ? [number, number] : null } = {
  delayMs: [0, 60_000],
  jitterMs: [0, 60_000],
  cellTimeoutMs: [10_000, 600_000],
  scrollPauseMs: [50, 10_000],
  maxAttempts: [1, 20],
  workers: [1, 3],
  dedicatedWindow: null,
  maxCells: [1, 100_000],
  lang: null,
  placeDetails: null,
  belowFloorAccepted: null,
  contactsFromWebsites: null,
  contactsRecheckDays: [1, 365],
  reviews: null,
  reviewsPerPlace: [1, 10_000],
  reviewsSince: null,
  reviewsKeepAuthor: null,
  filters: null,
};

/** A real calendar day as YYYY-MM-DD (2025-02-30 is none), or null. */
export function calendarDay(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value ? value : null;
}

/**
 * Settings from storage (possibly old or hand-edited): unknown keys dropped, numbers clamped,
 * the delay held at DELAY_FLOOR_MS unless the risk was accepted, a language not offered
 * replaced by the default (`locale`, the browser's, when not given).
 */
export function normaliseSettings(raw: unknown, locale?: string): AllSettings {
  const out: AllSettings = { ...DEFAULT_SETTINGS, filters: normaliseFilter(undefined) };
  if (locale !== undefined) out.lang = hlFromLocale(locale);
  if (!raw || typeof raw !== 'object') return out;
  const given = raw as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof AllSettings)[]) {
    const value = given[key];
    const limits = LIMITS[key];
    if (key === 'lang') {
      if (typeof value === 'string' && BY_CODE.has(value.toLowerCase())) out.lang = BY_CODE.get(value.toLowerCase())!;
    } else if (key === 'reviewsSince') {
      out.reviewsSince = calendarDay(value) ?? '';
    } else if (key === 'filters') {
      out.filters = normaliseFilter(value);
    } else if (limits && typeof value === 'number' && Number.isFinite(value)) {
      (out[key] as number) = Math.min(limits[1], Math.max(limits[0], Math.round(value)));
    } else if (!limits && typeof value === 'boolean') {
      (out[key] as boolean) = value;
    }
  }
  if (!out.belowFloorAccepted) out.delayMs = Math.max(DELAY_FLOOR_MS, out.delayMs);
  return out;
}
