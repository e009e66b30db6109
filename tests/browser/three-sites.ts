/**
 * One Chromium with all three replica map sites (issue 24): what the Businesses browser test
 * and `npm run demo -- --businesses` share. Each site's sweep is started from the popup with
 * that site's tab in front, as a person would; the truth is each site's own search, by world
 * place, through each replica's own ids.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { areaContains } from '../../utils/geo';
import type { Area } from '../../utils/geo/types';
import { bboxToWcongRect } from '../../utils/geo/wcongnamul';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { naverChromiumArgs, startNaverReplica, type NaverReplica } from '../replica/naver/server';
import { kakaoChromiumArgs, startKakaoReplica, type KakaoReplica } from '../replica/kakao/server';
import { kakaoGroundTruth } from '../replica/kakao/search';
import { indexOfNaverId } from '../replica/naver/data';
import type { World } from '../replica/world';
import { startSweepFromPopup, waitForSweep, type SweepRecord } from './extension';
import { launchBrowser, newProfileDir, openPopup, readAll, removeProfileDir, type RunningBrowser } from './harness';

export interface ThreeSites {
  google: Replica;
  naver: NaverReplica;
  kakao: KakaoReplica;
  browser: RunningBrowser;
  /** SIGKILL the browser and launch it again on its profile (`browser` is the new one). */
  killAndRelaunch(): Promise<RunningBrowser>;
  close(): Promise<void>;
}

/** Several `--host-resolver-rules` lists as one flag (Chromium keeps only the last flag of a name). */
export function mergedResolverArgs(...lists: string[][]): string[] {
  const rules = lists
    .flat()
    .filter((a) => a.startsWith('--host-resolver-rules='))
    .map((a) => a.slice('--host-resolver-rules='.length));
  return [`--host-resolver-rules=${rules.join(', ')}`, '--ignore-certificate-errors'];
}

export async function startThreeSites(world: World): Promise<ThreeSites> {
  const [google, naver, kakao] = await Promise.all([startReplica({ world }), startNaverReplica({ world }), startKakaoReplica({ world })]);
  const profileDir = newProfileDir();
  const resolverArgs = mergedResolverArgs(chromiumArgs(google.port), naverChromiumArgs(naver.port), kakaoChromiumArgs(kakao.port));
  const sites: ThreeSites = {
    google,
    naver,
    kakao,
    browser: await launchBrowser({ profileDir, resolverArgs }),
    async killAndRelaunch() {
      await sites.browser.kill();
      sites.browser = await launchBrowser({ profileDir, resolverArgs });
      return sites.browser;
    },
    async close() {
      await sites.browser.close();
      removeProfileDir(profileDir);
      await Promise.all([google.close(), naver.close(), kakao.close()]);
    },
  };
  return sites;
}

/** The map tab each site's sweep starts from, and the keyword a person types there. */
export const SITE_SEARCHES: ReadonlyArray<{ site: 'google' | 'naver' | 'kakao'; keyword: string; url: (centre: { lat: number; lng: number }) => string }> = [
  { site: 'google', keyword: 'cafe', url: (c) => `https://www.google.com/maps/search/cafe/@${c.lat},${c.lng},15z` },
  { site: 'naver', keyword: '카페', url: () => `https://map.naver.com/p/search/${encodeURIComponent('카페')}` },
  { site: 'kakao', keyword: '카페', url: () => `https://map.kakao.com/?q=${encodeURIComponent('카페')}` },
];

/** Sweep `area` on each site in turn, each from its own tab; the sweeps as they ended. */
export async function sweepEachSite(
  sites: ThreeSites,
  areaText: string,
  centre: { lat: number; lng: number },
  settings: Record<string, number | boolean>,
  onSite?: (site: string) => void,
): Promise<SweepRecord[]> {
  const ended: SweepRecord[] = [];
  for (const s of SITE_SEARCHES) {
    onSite?.(s.site);
    const before = new Set(ended.map((e) => e.id));
    const tab = await sites.browser.context.newPage();
    await tab.goto(s.url(centre));
    const popup = await startSweepFromPopup(sites.browser.context, { keywords: s.keyword, area: areaText }, settings);
    ended.push(await waitForSweep(popup, (r) => !before.has(r.id) && (r.status === 'finished' || r.status === 'failed'), `the ${s.site} sweep`, 900_000));
    await popup.close();
    await tab.close();
  }
  return ended;
}

/** Each site's truth for its keyword in the area: the listing keys of each world place. */
export function truthByPlace(sites: ThreeSites, area: Area): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const add = (index: number, key: string) => out.set(index, [...(out.get(index) ?? []), key]);
  for (const p of sites.google.groundTruth('cafe', area)) add(p.index, `google:${p.cid}`);
  for (const n of sites.naver.groundTruth('카페', area.bbox))
    if (areaContains(area, { lat: Number(n.y), lng: Number(n.x) })) add(indexOfNaverId(n.id)!, `naver:${n.id}`);
  const b = area.bbox;
  const wider = bboxToWcongRect({ south: b.south - 0.01, west: b.west - 0.01, north: b.north + 0.01, east: b.east + 0.01 })!;
  for (const k of kakaoGroundTruth(sites.kakao.kakao, '카페', wider)) if (areaContains(area, k)) add(k.place.index, `kakao:${k.confirmId}`);
  return out;
}

/**
 * The truth for what the store holds: its listing keys grouped by the world place each is, read
 * back through each replica's own ids. Collect-while-browsing stores the places the map tabs
 * showed beside the district too; they are businesses like any other.
 */
export function truthOfKeys(sites: ThreeSites, keys: readonly string[]): string[][] {
  const world = sites.google.world;
  const indexOf = (key: string): number => {
    const [site, id] = key.split(':') as [string, string];
    const index =
      site === 'google'
        ? world.byCid.get(id)?.index
        : site === 'naver'
          ? indexOfNaverId(id)
          : site === 'kakao'
            ? sites.kakao.kakao.byConfirmId.get(id)?.place.index
            : undefined;
    if (index === undefined || index === null) throw new Error(`${key} is no place of the replica world`);
    return index;
  };
  const byPlace = new Map<number, string[]>();
  for (const key of keys) byPlace.set(indexOf(key), [...(byPlace.get(indexOf(key)) ?? []), key]);
  const order = (k: string) => SITE_SEARCHES.findIndex((s) => k.startsWith(`${s.site}:`));
  return [...byPlace.values()].map((g) => g.sort((x, y) => order(x) - order(y)));
}

/** The popup's Businesses CSV of every place: its text, rows, and each row's listing keys. */
export async function exportBusinessesFromPopup(popup: Page): Promise<{ text: string; fileName: string; rows: Record<string, string>[]; groups: string[][] }> {
  await popup.getByLabel('Places to export').selectOption('all');
  const [download] = await Promise.all([
    popup.waitForEvent('download', { timeout: 60_000 }),
    popup.getByRole('button', { name: 'Export Businesses CSV' }).click(),
  ]);
  const text = readFileSync((await download.path())!, 'utf8');
  const rows = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
  const groups = rows.map((r) => SITE_SEARCHES.filter((s) => r[`${s.site}_id`]).map((s) => `${s.site}:${r[`${s.site}_id`]}`));
  return { text, fileName: download.suggestedFilename(), rows, groups };
}

/** Links (pairs of listings in one row) found and true: what precision and recall count. */
export function linkScore(
  exported: readonly string[][],
  truth: readonly string[][],
): { precision: number; recall: number; found: number; true: number; right: number } {
  const pairs = (groups: readonly string[][]) => new Set(groups.flatMap((g) => g.flatMap((a, i) => g.slice(i + 1).map((b) => `${a}|${b}`))));
  const got = pairs(exported);
  const want = pairs(truth);
  const right = [...got].filter((p) => want.has(p)).length;
  return { precision: got.size ? right / got.size : 1, recall: want.size ? right / want.size : 1, found: got.size, true: want.size, right };
}

export { openPopup, readAll };
