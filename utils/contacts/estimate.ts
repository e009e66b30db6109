/**
 * What the contacts pass costs, for the options page: the requests per website at most
 * (robots.txt, the home page, MAX_CONTACT_PAGES more) and the websites an hour at most, when
 * every site answers at once and the only wait is the gap between two requests to one site.
 */
import type { ContactsSettings } from './pass';
import { MAX_CONTACT_PAGES } from './visit';

export function contactsCost(s: Pick<ContactsSettings, 'concurrency' | 'gapMs'>): { pagesPerSite: number; gapSeconds: number; sitesPerHour: number } {
  const pagesPerSite = 2 + MAX_CONTACT_PAGES;
  const secondsPerSite = Math.max(0.001, (pagesPerSite * s.gapMs) / 1000);
  // Rounded down to a hundred: "at most about", never a promise.
  const sitesPerHour = Math.floor((s.concurrency * 3600) / secondsPerSite / 100) * 100;
  return { pagesPerSite, gapSeconds: s.gapMs / 1000, sitesPerHour };
}
