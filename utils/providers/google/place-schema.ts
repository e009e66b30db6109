import * as v from 'valibot';
import { TEXT_LIMITS } from './fields';
import { cleanText } from './labels';

/**
 * The shape of Google's place array P (map-pages-spec §1.5), declared once: every index this
 * extension reads from P is written here and nowhere else, with the type, range and length
 * it must have. Search responses (`item[14]`) and the place page's state (`jd[6]`) use it.
 *
 * P comes from the page's JavaScript world, where any script can forge it (see the trust
 * rule in utils/listing/merge-fields.ts). Two strictness levels:
 * - the fields a listing has always had (ids, name, pin, rating, count, website, phone,
 *   categories, address) are strict: one of them present with a wrong type, out of range or
 *   too long refuses the whole place, as a forged or changed item should be;
 * - the detail blocks (structured address, hours, price, status) are lenient: a shape we do
 *   not know reads as "not given" and leaves the place intact, because Google reshapes these
 *   nested blocks more often than the core and a new hours layout is not a forged place.
 */

/** An array checked by index: `indexed({ 11: s })` checks `[11]` and looks at nothing else. */
function indexed<const E extends v.ObjectEntries>(entries: E) {
  // valibot's object() reads keys of any object, an array's indices included; the array()
  // before it refuses `{ "11": … }` look-alikes. The cast only tells pipe() that object()
  // accepts what array() gives (its declared input is the keyed object).
  const byIndex = v.object(entries) as unknown as v.GenericSchema<unknown[], v.InferOutput<v.ObjectSchema<E, undefined>>>;
  return v.pipe(v.array(v.unknown()), byIndex);
}

/** Bounded text, cleaned as DOM text is (icon glyphs, odd spaces); empty becomes null. */
function text(max: number) {
  return v.pipe(
    v.string(),
    v.maxLength(max, `longer than ${max} characters`),
    v.transform((s) => cleanText(s) || null),
  );
}

/** Absent or null: the site did not say. */
function given<S extends v.GenericSchema>(schema: S) {
  return v.nullish(schema);
}

/** A detail block: a shape we do not know is "not given", never a reason to refuse the place. */
function lenient<S extends v.GenericSchema>(schema: S) {
  return v.fallback(v.nullish(schema), null);
}

const Rating = v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(5));
const ReviewCount = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1e9));
// Range is checked on the pair (checkPin): a pin is both coordinates or none.
const Coordinate = v.number();

/** `[h]` or `[h, m]`; hours past 24 close after midnight. */
const HourMinute = v.pipe(
  v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(59))),
  v.minLength(1),
  v.maxLength(2),
  v.check((hm) => hm[0]! <= 48, 'hour out of range'),
);

/** `P[203][0][k]`: `[dayName, isoDay, [y,m,d], [[text, [[h,m],[h,m]]], …], …]`. */
const WeekDay = indexed({
  0: text(50),
  1: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7)),
  3: given(v.pipe(v.array(indexed({ 0: text(TEXT_LIMITS.hours), 1: given(indexed({ 0: HourMinute, 1: HourMinute })) })), v.maxLength(8))),
});

/** `P[34][1][k]`: `[dayName, [text…], , , "YYYY-MM-DD", , [[oh, om, ch, cm]…]]`, the older block. */
const OlderDay = indexed({
  0: text(50),
  1: given(v.pipe(v.array(text(TEXT_LIMITS.hours)), v.maxLength(8))),
  4: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
  6: given(v.pipe(v.array(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(59))), v.length(4))), v.maxLength(8))),
});

/** `P[178][k]`: `[display, [[form, kind]…], , digits, …]`; kind 2 is the international form. */
const Phone = indexed({
  0: given(text(TEXT_LIMITS.phone)),
  1: lenient(v.pipe(v.array(indexed({ 0: given(text(TEXT_LIMITS.phone)), 1: given(v.number()) })), v.maxLength(8))),
  3: lenient(text(TEXT_LIMITS.phone)),
});

const Part = lenient(text(TEXT_LIMITS.address));

export const PlaceArraySchema = indexed({
  /** Address lines: `["Eakou 74", "Ilion 131 22", "Greece"]`. */
  2: given(v.pipe(v.array(given(text(TEXT_LIMITS.address))), v.maxLength(10, 'address parts are not a short list'))),
  4: given(
    indexed({
      /** Price level (`€€`). */
      2: lenient(text(TEXT_LIMITS.price)),
      7: given(Rating),
      8: given(ReviewCount),
    }),
  ),
  /** Website, possibly wrapped as `/url?q=`. */
  7: given(indexed({ 0: given(text(TEXT_LIMITS.url)) })),
  9: given(indexed({ 2: given(Coordinate), 3: given(Coordinate) })),
  10: given(text(TEXT_LIMITS.id)),
  11: given(text(TEXT_LIMITS.name)),
  /** Every category, main first. */
  13: given(v.pipe(v.array(text(TEXT_LIMITS.category)), v.maxLength(20))),
  /** "Name, address". */
  18: lenient(text(TEXT_LIMITS.name + TEXT_LIMITS.address)),
  34: lenient(
    indexed({
      1: lenient(v.pipe(v.array(OlderDay), v.maxLength(7))),
      4: lenient(indexed({ 4: given(text(TEXT_LIMITS.hours)) })),
    }),
  ),
  /** The address alone, as the site formats it. */
  39: given(text(TEXT_LIMITS.address)),
  78: given(text(TEXT_LIMITS.id)),
  178: given(v.pipe(v.array(Phone), v.maxLength(10))),
  /** `[1]` = [borough, street, street, city, postal code, state, country code]. */
  183: lenient(indexed({ 1: lenient(indexed({ 0: Part, 1: Part, 2: Part, 3: Part, 4: Part, 5: Part, 6: lenient(text(8)) })) })),
  203: lenient(
    indexed({
      0: lenient(v.pipe(v.array(WeekDay), v.maxLength(7))),
      /** `[1][4][0]`: the open-status line ("Open ⋅ Closes 8:30 PM", "Permanently closed"). */
      1: lenient(indexed({ 4: lenient(indexed({ 0: given(text(TEXT_LIMITS.hours)) })) })),
    }),
  ),
});

export type PlaceArrayShape = v.InferOutput<typeof PlaceArraySchema>;
export type WeekDayShape = v.InferOutput<typeof WeekDay>;
export type OlderDayShape = v.InferOutput<typeof OlderDay>;
export type PhoneShape = v.InferOutput<typeof Phone>;

/** P checked against the schema, or the first problem found, as `P[4][7]: …`. */
export function checkPlaceArray(p: unknown): { ok: true; value: PlaceArrayShape } | { ok: false; reason: string } {
  const result = v.safeParse(PlaceArraySchema, p);
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  const path = (issue.path ?? []).map((step) => `[${String(step.key)}]`).join('');
  return { ok: false, reason: `P${path}: ${issue.message}` };
}
