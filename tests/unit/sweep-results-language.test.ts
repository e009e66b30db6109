/**
 * The sweep's results language (settings.lang, options page) reaches every page it loads: the
 * driver builds each search URL with it. A sweep stored before the option (no lang) asks English.
 */
import { describe, expect, it } from 'vitest';
import { simSweep } from '../helpers/sim-sweep';
import { AREA, world } from '../helpers/sim-world';

async function loadedUrls(lang: string | undefined): Promise<string[]> {
  const urls: string[] = [];
  await simSweep({
    world,
    areaText: AREA,
    keywordsText: '카페',
    settings: { lang },
    stopAfterLoads: 6,
    sim: {
      alwaysFail: (url) => {
        urls.push(url);
        return false;
      },
    },
  });
  return urls;
}

describe('results language in every search URL', () => {
  it('a sweep set to Korean asks hl=ko on every page load', async () => {
    const urls = await loadedUrls('ko');
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const u of urls) expect(u).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/%EC%B9%B4%ED%8E%98\/@[\d.]+,[\d.]+,[\d.]+z\?hl=ko$/);
  });

  it('French asks hl=fr; a sweep from before the option asks hl=en', async () => {
    for (const u of await loadedUrls('fr')) expect(u).toMatch(/\?hl=fr$/);
    for (const u of await loadedUrls(undefined)) expect(u).toMatch(/\?hl=en$/);
  });
});
