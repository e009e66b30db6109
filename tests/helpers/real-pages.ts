/**
 * The real captures in /work/shared/real-pages/{provider}/ (see SOURCES.md there), read in place,
 * and a parser that gives each page its own happy-dom Window whose network answers 404 locally:
 * the captures reference the sites' scripts, styles and preloads, which must not be fetched.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Window } from 'happy-dom';
import { afterAll } from 'vitest';

const REAL_PAGES = path.resolve(__dirname, '../../../shared/real-pages');

export type RealPageProvider = 'google' | 'naver' | 'kakao';

export function readRealPage(provider: RealPageProvider, file: string): string {
  return readFileSync(path.join(REAL_PAGES, provider, file), 'utf8');
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
