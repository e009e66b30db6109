/**
 * The one table of who sends what to whom (utils/messaging/senders.ts): the sender check each
 * context makes, and that every handler the extension registers goes through it, under its own
 * name, for a message the table names.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guarded, MESSAGES, MessageRefused, sentFrom, type Covered, type MessageName } from '../../utils/messaging/senders';

const ID = 'mapsweepid';
const env = {
  runtime: { id: ID, getURL: (path: string) => `chrome-extension://${ID}${path}` },
  isMapUrl: (url: string) => /^https:\/\/(www\.google\.com\/maps|map\.naver\.com|map\.kakao\.com)/.test(url),
};

describe('who a sender is', () => {
  const popup = { id: ID, url: `chrome-extension://${ID}/popup.html` };
  const dashboardTab = { id: ID, url: `chrome-extension://${ID}/dashboard.html`, tab: { id: 9, url: `chrome-extension://${ID}/dashboard.html` } };
  const mapTab = { id: ID, url: 'https://map.naver.com/p/search/cafe', tab: { id: 3, url: 'https://map.naver.com/p/search/cafe' } };
  const otherTab = { id: ID, url: 'https://example.com/', tab: { id: 4, url: 'https://example.com/' } };
  const worker = { id: ID, url: `chrome-extension://${ID}/background.js` };
  const anotherExtension = { id: 'evil', url: `chrome-extension://evil/${ID}/popup.html` };

  it('a page: the extension id and one of its own URLs', () => {
    expect(sentFrom('page', popup, env)).toBe(true);
    expect(sentFrom('page', dashboardTab, env)).toBe(true);
    for (const s of [mapTab, otherTab, anotherExtension, { id: ID }, { url: popup.url }]) expect(sentFrom('page', s, env)).toBe(false);
  });

  it('a map tab: this extension\u2019s content script in a tab on a map site', () => {
    expect(sentFrom('map-tab', mapTab, env)).toBe(true);
    for (const s of [otherTab, popup, dashboardTab, { ...mapTab, id: 'evil' }, { id: ID, url: mapTab.url }]) expect(sentFrom('map-tab', s, env)).toBe(false);
    // Without a way to tell map sites (a content script's own check), no tab is one.
    expect(sentFrom('map-tab', mapTab, { runtime: env.runtime })).toBe(false);
  });

  it('the background: this extension, from no tab', () => {
    expect(sentFrom('background', worker, env)).toBe(true);
    for (const s of [mapTab, otherTab, { ...worker, id: 'evil' }]) expect(sentFrom('background', s, env)).toBe(false);
    // No id of our own (a torn-down context): nobody is anyone.
    expect(sentFrom('background', worker, { runtime: { getURL: env.runtime.getURL } })).toBe(false);
  });

  it('guarded: the handler runs only for the table\u2019s sender; any other is refused before it, by name', async () => {
    let ran = 0;
    const handler = guarded('stopSweep', env, async (m: { sender: object; data: string }) => {
      ran++;
      return m.data;
    });
    expect(await handler({ sender: popup, data: 'ok' })).toBe('ok');
    await expect(handler({ sender: mapTab, data: 'x' })).rejects.toThrow(MessageRefused);
    await expect(handler({ sender: mapTab, data: 'x' })).rejects.toThrow('stopSweep is accepted only from MapSweep\u2019s own pages.');
    expect(ran).toBe(1);
  });

  it('a message map with a name the table lacks does not compile', () => {
    // @ts-expect-error: `notAMessage` is in no row of the table.
    const missing: Covered<{ notAMessage(): void }> = true;
    const present: Covered<{ stopSweep(): void }> = true;
    expect([missing, present]).toEqual([true, true]);
  });
});

describe('every handler goes through the table', () => {
  const roots = ['utils', 'entrypoints'];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) files.push(path);
    }
  };
  for (const r of roots) walk(r);
  /** Each registration: the file, the name it listens to, and the name its guard checks. */
  const registrations = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bon\w*Message\(\s*('(\w+)'|name),\s*(guarded\(\s*('(\w+)'|name)|[^)]{0,40})/g)].map((m) => ({
      file,
      listens: m[2] ?? m[1]!,
      guard: m[3]!.startsWith('guarded(') ? (m[5] ?? m[4]!) : null,
    })),
  );

  it('finds the registrations (the scan itself works)', () => {
    expect(registrations.length).toBeGreaterThan(25);
  });

  it('each is guarded, under its own name, for a message the table names', () => {
    for (const r of registrations) {
      expect(r.guard, `${r.file}: ${r.listens} is registered without the table's check`).not.toBeNull();
      expect(r.guard, `${r.file}: ${r.listens} is guarded under another name`).toBe(r.listens);
      if (r.listens !== 'name') expect(Object.keys(MESSAGES), r.file).toContain(r.listens);
    }
  });

  it('each name in the table is answered somewhere (the background\u2019s command loop answers the sweep commands)', () => {
    const answered = new Set(registrations.map((r) => r.listens));
    const commands = readFileSync('utils/app/background.ts', 'utf8');
    const unanswered = (Object.keys(MESSAGES) as MessageName[]).filter((n) => !answered.has(n) && !commands.includes(`'${n}'`));
    expect(unanswered).toEqual([]);
  });
});
