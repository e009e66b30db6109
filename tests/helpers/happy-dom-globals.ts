/**
 * The page globals (window, document, Node, Event, …) of vitest's happy-dom environment, for
 * code that renders a page into the global document (tests/helpers/kakao-content-harness.ts) when
 * it runs where there is none: a unit test file in the node environment, or the bench under
 * plain Node. Installed once, the way vitest installs them (its own happy-dom environment), so
 * the page is the same one the content tests render; a global document already there is kept.
 */
export async function ensureHappyDomGlobals(): Promise<void> {
  if (typeof (globalThis as { document?: unknown }).document !== 'undefined') return;
  const { builtinEnvironments } = await import('vitest/runtime');
  await builtinEnvironments['happy-dom'].setup(globalThis, {});
}
