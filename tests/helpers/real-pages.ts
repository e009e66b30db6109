/**
 * The real captures in ../shared/real-pages/{provider}/ (beside the clone; see SOURCES.md there),
 * read in place, and a parser that gives each page its own happy-dom Window whose network answers
 * 404 locally: the captures reference the sites' scripts, styles and preloads, which must not be
 * fetched.
 *
 * A clone without ../shared still passes: the tests that read a capture are declared through
 * `realPagesIt` / `realPagesDescribe`, which skip them and say so in one line per file. CI has
 * ../shared, and .ci/run refuses to run without it, so there they always run.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Window } from 'happy-dom';
import { afterAll, describe, it } from 'vitest';

const REAL_PAGES = path.resolve(__dirname, '../../../shared/real-pages');

/** Why the capture tests are skipped, or null when ../shared/real-pages is here. */
export const realPagesMissing: string | null = existsSync(REAL_PAGES)
  ? null
  : "../shared/real-pages is not beside this clone (the sites' real captures live outside the repo; CI has them)";

const warned = new Set<string>();
/** One line per test file that skips, naming what is missing and why. */
function sayWhySkipped(what: string): void {
  if (!realPagesMissing || warned.has(what)) return;
  warned.add(what);
  console.warn(`skipped: ${what}: ${realPagesMissing}`);
}

/** `it`, skipped (and said once) when the captures are not here. */
export function realPagesIt(file: string): typeof it {
  sayWhySkipped(`the real-capture tests of ${file}`);
  return it.skipIf(realPagesMissing !== null) as typeof it;
}

/**
 * `describe`, skipped (and said once) when the captures are not here. A skipped suite's body is
 * never run, since bodies read their capture as they declare their tests.
 */
export function realPagesDescribe(file: string): (name: string, body: () => void) => void {
  sayWhySkipped(`the real-capture tests of ${file}`);
  if (realPagesMissing === null) return describe;
  const reason = realPagesMissing;
  return (name) => describe.skip(name, () => it.skip(`needs ${reason}`, () => {}));
}

export type RealPageProvider = 'google' | 'naver' | 'kakao';

/** The path of one capture (for tests that read it as bytes or list the folder). */
export function realPagePath(provider: RealPageProvider, file = ''): string {
  return path.join(REAL_PAGES, provider, file);
}

export function readRealPage(provider: RealPageProvider, file: string): string {
  return readFileSync(realPagePath(provider, file), 'utf8');
}

/**
 * `parse(html, url)` into a Document of a fresh, script-less Window. Call it at file or `describe`
 * level: the windows it opens are closed after that suite.
 */
export function realPageParser(): (html: string, url: string) => Document {
  const windows: Window[] = [];
  afterAll(async () => {
    await Promise.all(windows.map((w) => w.happyDOM.close()));
  });
  return (html, url) => {
    const win = new Window({
      url,
      settings: {
        disableJavaScriptEvaluation: true,
        disableJavaScriptFileLoading: true,
        disableCSSFileLoading: true,
        disableIframePageLoading: true,
        handleDisabledFileLoadingAsSuccess: true,
        fetch: { interceptor: { beforeAsyncRequest: async ({ window }) => new window.Response('', { status: 404 }) } },
      },
    });
    windows.push(win);
    return new win.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
  };
}
