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
};

/** Every option the options page stores under `settings`. */
export type AllSettings = SweepSettings & DetailsSetting & PacingRiskSetting & ContactsSetting & ReviewsSetting;

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
  const out: AllSettings = { ...DEFAULT_SETTINGS };
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
    } else if (limits && typeof value === 'number' && Number.isFinite(value)) {
      (out[key] as number) = Math.min(limits[1], Math.max(limits[0], Math.round(value)));
    } else if (!limits && typeof value === 'boolean') {
      (out[key] as boolean) = value;
    }
  }
  if (!out.belowFloorAccepted) out.delayMs = Math.max(DELAY_FLOOR_MS, out.delayMs);
  return out;
}
