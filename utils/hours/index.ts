/**
 * Opening hours from the texts the three map sites show (issue 40), Korean and English:
 * `매일 10:00 - 22:00`, `월요일 휴무 | 평일 11:30~22:00 21:00(마지막주문)`, `Monday: 7 AM–8:30 PM; …`,
 * into the listing's DayHours, breaks, last orders and closed marks, with OSM `opening_hours` from
 * osm.ts. Pure: no site's page or JSON is read here; each provider hands in the text it found.
 *
 * What is not understood stays text (`unparsed`), and a day the text does not give is unknown,
 * never closed. A text longer than MAX_HOURS_TEXT is not read at all: no site writes a week that
 * long, and a bound keeps a hostile page's text from costing the worker anything.
 */
import { normaliseHoursText, tokenize } from './tokens';
import { readStatement, splitStatements } from './statements';
import type { ParsedHours } from './types';
import { weekOf } from './week';

export { osmOpeningHours } from './osm';
export type { DayKey, Interval, ParsedHours } from './types';

/** The longest text read, in characters (a full Google week in English is about 250). */
export const MAX_HOURS_TEXT = 2000;

export function parseHoursText(text: string): ParsedHours {
  const trimmed = text.trim();
  if (trimmed.length > MAX_HOURS_TEXT) return nothingKnown([trimmed]);
  const normalised = normaliseHoursText(trimmed);
  const statements = splitStatements(tokenize(normalised.text)).map((tokens) => readStatement(tokens, normalised));
  return weekOf(statements, /[가-힣]/.test(normalised.text));
}

function nothingKnown(unparsed: string[]): ParsedHours {
  return { days: [], unknownDays: [1, 2, 3, 4, 5, 6, 7], publicHolidays: null, breaks: [], lastOrders: [], closed: null, notes: [], unparsed };
}
