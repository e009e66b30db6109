/**
 * The Naver and Kakao sim pages run the content scripts' own modules (utils/providers/{naver,kakao}/collect.ts and content.ts), which
 * import the extension's messaging layer; its webextension polyfill refuses to load outside an
 * extension (no `chrome.runtime.id`). Under plain Node (npm run bench) the bench gives it a
 * runtime id and nothing else: no message is ever sent or received here. Imported first by
 * recall.ts; under vitest (tests/unit/bench-recall.test.ts) the fake browser is kept.
 */
const g = globalThis as { chrome?: { runtime?: { id?: string } } };
g.chrome ??= { runtime: { id: 'mapsweep-bench' } };
