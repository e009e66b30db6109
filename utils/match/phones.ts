/**
 * The numbers that can say two listings are one business: the business's own, in E.164.
 * Korea's 0507 range (+82 507) is virtual (안심번호): a map site hands one out per listing
 * and forwards it, so it is the site's number for the business, not the business's own, and
 * two sites never share it.
 */
import { phoneToE164 } from '../listing/phone';
import type { ProviderId } from '../domain/place';
import { providerById } from '../providers/registry';

const VIRTUAL_KOREAN = /^\+82507/;

/** A number as a site displays it, in E.164 by that site's own country (the provider's phoneRegion). */
export function siteE164(site: ProviderId, display: string): string | null {
  return phoneToE164(display, providerById(site)?.phoneRegion);
}
/** `0507-1234-5678`, `0507 1234 5678`, `05071234567` as a site displays one. */
const VIRTUAL_DISPLAY = /^\s*0507[\s.-]?\d/;

export function ownPhones(
  phoneE164: string | null | undefined,
  otherPhones: readonly string[] | undefined,
  toE164: (display: string) => string | null,
): Set<string> {
  const out = new Set<string>();
  const add = (n: string | null | undefined) => {
    if (n && !VIRTUAL_KOREAN.test(n)) out.add(n);
  };
  add(phoneE164);
  // A displayed 0507 number is left out before it is parsed: reading a number is the dearest step here.
  for (const p of otherPhones ?? []) if (!VIRTUAL_DISPLAY.test(p)) add(p.startsWith('+') ? p : toE164(p));
  return out;
}
