/**
 * A parsed week in OpenStreetMap's `opening_hours` syntax: `Mo-Fr 09:00-18:00; Sa 10:00-14:00;
 * Su unknown; PH off`.
 *
 * Unlike export/columns.ts `openingHoursText` (which leaves a day without times out), days the
 * text did not give are written `unknown`: in OSM a day left out is closed, and "not stated" is
 * not "closed". Days with the same hours are written once (`Mo-We,Fr`), a whole week open round
 * the clock is `24/7`, and public holidays come last so their rule overrides the weekday's.
 */
import type { ParsedHours } from './types';

const CODES = ['', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

/** The week as an `opening_hours` value, or null when the text gave no day and no holiday rule. */
export function osmOpeningHours(p: Pick<ParsedHours, 'days' | 'publicHolidays'>): string | null {
  const known = new Map(p.days.filter((d) => d.day >= 1 && d.day <= 7).map((d) => [d.day, times(d.intervals)]));
  if (known.size === 0 && !p.publicHolidays) return null;
  const rules: string[] = [];
  if (known.size === 7 && [...known.values()].every((t) => t === '00:00-24:00')) rules.push('24/7');
  else {
    // Signature → its days, in the order the signatures first appear in the week.
    const bySignature = new Map<string, number[]>();
    for (let day = 1; day <= 7; day++) {
      const signature = known.get(day) ?? 'unknown';
      bySignature.set(signature, [...(bySignature.get(signature) ?? []), day]);
    }
    for (const [signature, days] of bySignature) rules.push(`${dayList(days)} ${signature}`);
  }
  if (p.publicHolidays) rules.push(`PH ${times(p.publicHolidays.intervals)}`);
  return rules.join('; ');
}

function times(intervals: ParsedHours['days'][number]['intervals']): string {
  return intervals.length === 0 ? 'off' : intervals.map((i) => `${i.open}-${i.close}`).join(',');
}

/** `[1,2,3,5]` → `Mo-We,Fr`; two days in a row are listed (`Sa,Su`), three or more are a range. */
function dayList(days: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < days.length; ) {
    let j = i;
    while (j + 1 < days.length && days[j + 1] === days[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${CODES[days[i]!]}-${CODES[days[j]!]}`);
    else for (let k = i; k <= j; k++) parts.push(CODES[days[k]!]!);
    i = j + 1;
  }
  return parts.join(',');
}
