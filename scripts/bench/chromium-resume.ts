/**
 * Browser start to the next cell leased, on a profile whose 'mapsweep' database holds a sweep
 * paused by a restart and 200k of its listings. Each sample launches Chromium on the profile,
 * opens the map tab and the popup as a person would, presses Resume, and stops the clock at the
 * replica's first page load: the cell's search, which follows the lease. The browser is then
 * closed while the sweep runs, so the next start pauses it for a restart again.
 *
 * The same on a profile with the same sweep and no listings is the control: if resuming read
 * the whole store, the two would differ by the time it takes to read 200k listings.
 */
import type { Page } from 'playwright-core';
import { newProfileDir, openPopup, setSettings } from '../../tests/browser/harness';
import {
  areaAround,
  CENTRE,
  extensionBrowser,
  median,
  nextPageLoad,
  openMapTab,
  removeProfile,
  round,
  spread,
  UNPACED_SETTINGS,
  type BenchContext,
} from './chromium-context';
import { callBench, installBench } from './chromium-session';

export interface ResumeSample {
  /** launchBrowser called → the cell's page load. */
  launch_to_lease_s: number;
  /** Resume pressed (the popup showing the paused sweep) → the cell's page load. */
  click_to_lease_s: number;
  /** launchBrowser called → the popup shows the sweep with Resume enabled. */
  launch_to_popup_s: number;
}

export interface ResumeDetails {
  listings: number;
  fill_s: number;
  samples: ResumeSample[];
  /** The same sweep with no listings stored. */
  control_samples: ResumeSample[];
  click_to_lease_s: number;
  control_launch_to_lease_s: number;
  control_click_to_lease_s: number;
}

/** Metro Seoul: nine initial cells, so every restart finds a fresh one (the last leased one waits out its lease). */
const RESUME_AREA = areaAround(0.3, CENTRE.lat, CENTRE.lng);

export async function measureResume(ctx: BenchContext, listings: number, rounds: number): Promise<{ seconds: number; details: ResumeDetails }> {
  const full = newProfileDir();
  const empty = newProfileDir();
  try {
    const seeded = await seedProfile(ctx, full, listings);
    await seedProfile(ctx, empty, 0);
    ctx.log(`  resume: ${seeded.listings} listings of a paused sweep (${seeded.cells} cells) filled in ${seeded.fill_s} s`);
    const samples: ResumeSample[] = [];
    const control: ResumeSample[] = [];
    // Alternated, so load from whatever else runs on the machine falls on both alike.
    for (let i = 0; i < rounds; i++) {
      samples.push(await resumeOnce(ctx, full));
      control.push(await resumeOnce(ctx, empty));
    }
    const launch = samples.map((s) => s.launch_to_lease_s);
    const click = samples.map((s) => s.click_to_lease_s);
    ctx.log(`  resume, ${seeded.listings} listings: launch→lease ${spread(launch, 's')}, Resume→lease ${spread(click, 's')}`);
    ctx.log(
      `  resume, no listings:   launch→lease ${spread(
        control.map((s) => s.launch_to_lease_s),
        's',
      )}, ` +
        `Resume→lease ${spread(
          control.map((s) => s.click_to_lease_s),
          's',
        )}`,
    );
    return {
      seconds: round(median(launch)),
      details: {
        listings: seeded.listings,
        fill_s: seeded.fill_s,
        samples,
        control_samples: control,
        click_to_lease_s: round(median(click)),
        control_launch_to_lease_s: round(median(control.map((s) => s.launch_to_lease_s))),
        control_click_to_lease_s: round(median(control.map((s) => s.click_to_lease_s))),
      },
    };
  } finally {
    await removeProfile(full);
    await removeProfile(empty);
  }
}

async function seedProfile(ctx: BenchContext, profileDir: string, listings: number) {
  const b = await extensionBrowser(ctx, profileDir);
  try {
    const popup = await openPopup(b.context);
    await setSettings(popup, UNPACED_SETTINGS);
    await installBench(popup, ctx.log);
    const r = await callBench(popup, 'seedSweep', {
      sweepId: 'bench-resume',
      keywordsText: 'cafe',
      areaText: RESUME_AREA,
      status: 'paused',
      pauseReason: 'restart',
      settings: UNPACED_SETTINGS,
      listings,
    });
    if (r.listings !== listings) throw new Error(`resume: ${r.listings} listings stored, ${listings} wanted`);
    return { ...r, fill_s: round(r.fillMs / 1000, 1) };
  } finally {
    // Closed, not removed: the measured starts reuse this profile.
    await b.close();
  }
}

async function resumeOnce(ctx: BenchContext, profileDir: string): Promise<ResumeSample> {
  const launchedAt = Date.now();
  const b = await extensionBrowser(ctx, profileDir);
  try {
    await openMapTab(b.context);
    const popup = await openPopup(b.context);
    const resume = popup.getByRole('button', { name: 'Resume' });
    await waitEnabled(popup, resume);
    const shownAt = Date.now();
    const from = ctx.replica.requests.length;
    await resume.click();
    const load = await nextPageLoad(ctx.replica, from, 60_000);
    if (!load.path.startsWith('/maps/search/cafe/')) throw new Error(`resume: the first page load was ${load.path}, not a cell's search`);
    return {
      launch_to_lease_s: round((load.at - launchedAt) / 1000),
      click_to_lease_s: round((load.at - shownAt) / 1000),
      launch_to_popup_s: round((shownAt - launchedAt) / 1000),
    };
  } finally {
    await b.close();
  }
}

async function waitEnabled(page: Page, button: ReturnType<Page['getByRole']>): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await button.isEnabled().catch(() => false))) {
    if (Date.now() > until) throw new Error('resume: the popup never offered Resume');
    await page.waitForTimeout(20);
  }
}
