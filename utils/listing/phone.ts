/**
 * A listing's phone in E.164 (`+82212345678`), read by libphonenumber-js from the number the
 * site displays, for every provider alike. A number written nationally (`02-123-4567`) is read
 * in the region its provider serves (MapProvider.phoneRegion) or, failing that, the country of
 * the place's own address; without either only an international form (`+30 21 …`) is read.
 *
 * It runs where every reading is stored (store/listing-merge.ts mergeListing), in the service
 * worker: the `min` metadata adds about 120 kB once there, where in the content scripts it would
 * be parsed again on every page the sweep loads (`wxt build`, 2026-12-02). `max` costs 73 kB more
 * for number types this never asks for, and `mobile` refuses landlines.
 * Only a number libphonenumber calls valid gets an E.164 form, and with `min` "valid" means,
 * for a country with a calling code of its own (KR, FR, GR…), only that the national number
 * matches the country's one general pattern of leading digits and lengths (where countries
 * share a code, +1 or +44, `min` keeps the type patterns that tell them apart). That keeps out
 * a number too short or too long, one starting with digits the country never uses, and a
 * national form with no region to read it in. It does not check that the number lies in a
 * range the country assigns (`max`'s per-type patterns do): in KR `1234-5678` becomes
 * `+8212345678` and `02-0000-0000` `+82200000000`, though no one has either. So an E.164
 * form is the number the site displays, written internationally, not proof that it exists.
 * Korean service numbers (1588-1234, 1668-2506) pass as well (+82 1588 1234).
 */
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import type { Listing } from '../domain/listing';

export type { CountryCode };

/** `phone` in E.164, read in `region` when written nationally; null when it is not a valid number. */
export function phoneToE164(phone: string, region?: CountryCode): string | null {
  const parsed = parsePhoneNumberFromString(phone, region);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * `listing` with `phoneE164` read from its phone, from where the phone came (its source). An
 * E.164 form the site gave is kept as it is (the site knows its number better than a reading of
 * its display), and a phone the bounds cut is not read: the cut end is not the number's.
 */
export function withPhoneE164(listing: Listing, region?: CountryCode): Listing {
  if (listing.phoneE164 || !listing.phone || listing.cut?.includes('phone')) return listing;
  const e164 = phoneToE164(listing.phone, region ?? placeRegion(listing));
  if (!e164) return listing;
  const source = listing.sources?.phone;
  return { ...listing, phoneE164: e164, ...(source && { sources: { ...listing.sources, phoneE164: source } }) };
}

/** The country of the place's own address, when it names one libphonenumber knows. */
function placeRegion(listing: Listing): CountryCode | undefined {
  const code = listing.addressParts?.countryCode;
  return code && isSupportedCountry(code) ? code : undefined;
}
