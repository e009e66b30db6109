import type { AddressParts, DayHours, Listing } from '../../domain/listing';
import { checkPin, makeListing, unwrapLink } from './fields';
import { parseFeatureId, resolveIds } from './ids';
import { checkPlaceArray, type OlderDayShape, type PhoneShape, type PlaceArrayShape, type WeekDayShape } from './place-schema';

/**
 * The place array P that Google's JSON carries in search responses (`item[14]`) and in the
 * place page state (`jd[6]`), turned into a Listing with every detail P gives.
 *
 * P comes from the page's own JavaScript world, where any script can forge it: its shape is
 * checked by the schema in place-schema.ts (the only place its paths are written); what is
 * left here is what a schema cannot say: ids that agree, a pin on the globe, a website that is
 * http(s) once unwrapped. A strict field that fails refuses the whole item (with the reason),
 * never a guess and never a throw. The Listing says where each value came from: page data.
 */
export type PlaceArrayResult = { ok: true; place: Listing } | { ok: false; reason: string };

export function readPlaceArray(p: unknown): PlaceArrayResult {
  if (!Array.isArray(p)) return { ok: false, reason: 'place is not an array' };
  const checked = checkPlaceArray(p);
  if (!checked.ok) return checked;
  return toListing(checked.value);
}

function toListing(P: PlaceArrayShape): PlaceArrayResult {
  const featureId = P[10] ?? null;
  const placeId = P[78] ?? null;
  if (featureId !== null && !parseFeatureId(featureId)) return { ok: false, reason: 'feature id is not 0x…:0x…' };
  const ids = resolveIds({ featureId, placeId });
  if (!ids) return { ok: false, reason: 'ids missing or contradicting each other' };

  const name = P[11] ?? null;
  if (!name) return { ok: false, reason: 'no name' };

  const lat = P[9]?.[2] ?? null;
  const lng = P[9]?.[3] ?? null;
  const pin = checkPin(lat, lng);
  if (!pin && (lat !== null || lng !== null)) return { ok: false, reason: 'coordinates out of range' };

  const rawWebsite = P[7]?.[0] ?? null;
  const website = rawWebsite === null ? null : unwrapLink(rawWebsite);
  if (rawWebsite !== null && website === null) return { ok: false, reason: 'website is not an http(s) link' };

  const categories = (P[13] ?? []).filter((c): c is string => !!c);
  const phones = (P[178] ?? []).map(readPhone).filter((x): x is { display: string; e164: string | null } => x !== null);
  const hours = readHours(P);
  const status = P[203]?.[1]?.[4]?.[0] ?? P[34]?.[4]?.[4] ?? null;

  const details: Partial<Listing> = {};
  if (categories.length > 0) details.categories = categories;
  const parts = readAddressParts(P);
  if (parts) details.addressParts = parts;
  if (phones[0]?.e164) details.phoneE164 = phones[0].e164;
  if (phones.length > 1) details.otherPhones = phones.slice(1).map((x) => x.display);
  if (hours) {
    details.hours = hours.map((d) => `${d.dayName}: ${d.text}`).join('; ');
    // Structured only where the data gave times (a week of bare texts is not structure).
    if (hours.some((d) => d.intervals.length > 0)) details.openingHours = hours;
  }
  if (P[4]?.[2]) details.priceLevel = P[4][2];
  if (status !== null) details.closed = closedFrom(status);

  const place = makeListing(
    ids,
    {
      name,
      category: categories[0] ?? null,
      address: readAddress(P, name),
      phone: phones[0]?.display ?? null,
      website,
      rating: P[4]?.[7] ?? null,
      reviews: P[4]?.[8] ?? null,
      lat: pin?.lat ?? null,
      lng: pin?.lng ?? null,
      sponsored: false,
      ...details,
    },
    'page-data',
  );
  return { ok: true, place };
}

/**
 * The full address as the site formats it: `P[39]` is the address alone; else `P[18]`
 * ("Name, address") without the name; else the lines of `P[2]` joined.
 */
function readAddress(P: PlaceArrayShape, name: string): string | null {
  if (P[39]) return P[39];
  const named = P[18];
  if (named?.startsWith(`${name}, `) && named.length > name.length + 2) return named.slice(name.length + 2);
  const lines = (P[2] ?? []).filter((l): l is string => !!l);
  return lines.length > 0 ? lines.join(', ') : null;
}

function readAddressParts(P: PlaceArrayShape): AddressParts | null {
  const a = P[183]?.[1];
  if (!a) return null;
  const country = a[6]?.toUpperCase() ?? null;
  const parts: AddressParts = {
    street: a[1] ?? a[2] ?? null,
    district: a[0] ?? null,
    city: a[3] ?? null,
    postalCode: a[4] ?? null,
    region: a[5] ?? null,
    countryCode: country && /^[A-Z]{2}$/.test(country) ? country : null,
  };
  return Object.values(parts).some((x) => x !== null) ? parts : null;
}

/** E.164: `+` then 8–15 digits, no leading zero in the country code. */
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * A phone's display form and E.164. The digits at `[3]` are E.164 when they start with `+`
 * (Athens); otherwise (Kipriakon: "25101555") the international form (kind 2 at `[1]`,
 * "+357 25 101555") is, once spaces and dashes are gone.
 */
function readPhone(entry: PhoneShape): { display: string; e164: string | null } | null {
  const international = entry[1]?.find((f) => f[1] === 2)?.[0] ?? null;
  const display = entry[0] ?? international;
  if (!display) return null;
  const candidates = [entry[3], international].map((s) => (s ? s.replace(/[\s\-().]/g, '') : null));
  return { display, e164: candidates.find((s): s is string => !!s && E164.test(s)) ?? null };
}

/**
 * The week, Monday first: `P[203][0]` when present (ISO weekday and hour/minute pairs),
 * else the older `P[34][1]` (weekday from its date). A day seen twice keeps the first.
 */
function readHours(P: PlaceArrayShape): DayHours[] | null {
  const days = new Map<number, DayHours>();
  for (const d of P[203]?.[0] ?? []) {
    const day = weekDay(d);
    if (day && !days.has(day.day)) days.set(day.day, day);
  }
  if (days.size === 0) {
    for (const d of P[34]?.[1] ?? []) {
      const day = olderDay(d);
      if (day && !days.has(day.day)) days.set(day.day, day);
    }
  }
  if (days.size === 0) return null;
  return [...days.values()].sort((a, b) => a.day - b.day);
}

function weekDay(d: WeekDayShape): DayHours | null {
  const dayName = d[0];
  const slots = (d[3] ?? []).filter((s) => s[0]);
  if (!dayName || slots.length === 0) return null;
  const intervals = slots.flatMap((s) => (s[1] ? [{ open: hhmm(s[1][0]), close: hhmm(s[1][1]) }] : []));
  return { day: d[1], dayName, text: slots.map((s) => s[0]).join(', '), intervals };
}

function olderDay(d: OlderDayShape): DayHours | null {
  const dayName = d[0];
  const texts = (d[1] ?? []).filter((t): t is string => !!t);
  if (!dayName || texts.length === 0) return null;
  const [y, m, dd] = d[4].split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, dd)).getUTCDay();
  if (!Number.isFinite(weekday)) return null;
  const intervals = (d[6] ?? []).map(([oh, om, ch, cm]) => ({ open: hhmm([oh!, om!]), close: hhmm([ch!, cm!]) }));
  return { day: weekday === 0 ? 7 : weekday, dayName, text: texts.join(', '), intervals };
}

/** `[20, 30]` → "20:30"; an hour past 24 is the next morning's. */
function hhmm(hm: readonly number[]): string {
  const h = hm[0]! > 24 ? hm[0]! - 24 : hm[0]!;
  return `${String(h).padStart(2, '0')}:${String(hm[1] ?? 0).padStart(2, '0')}`;
}

/**
 * Closed for good or for now, from the open-status line in the results language; only the
 * wordings known from captures and scrapers are matched, anything else reads as "not closed".
 */
const PERMANENTLY = /permanently closed|^폐업|έκλεισε οριστικά|dauerhaft geschlossen|fermé définitivement|永久停業|閉業/i;
const TEMPORARILY = /temporarily closed|임시\s*휴업|προσωρινά κλειστό|vorübergehend geschlossen|fermé temporairement|暫時停業|臨時休業/i;

function closedFrom(status: string): 'permanently' | 'temporarily' | null {
  if (PERMANENTLY.test(status)) return 'permanently';
  if (TEMPORARILY.test(status)) return 'temporarily';
  return null;
}
