import type { fakeBrowser as FakeBrowser } from 'wxt/testing/fake-browser';

/**
 * The background's answer to a content script's "is this tab a sweep's?" (utils/app/background.ts
 * isSweepTab), as @webext-core/messaging replies: a content script collects while browsing only
 * once the background said no.
 */
export function backgroundAnswersSweepTab(fake: typeof FakeBrowser, isSweepTab: boolean): void {
  // WXT's fake browser delivers a reply the callback way: `true`, then sendResponse.
  fake.runtime.onMessage.addListener(((message: { type?: string }, _sender: unknown, sendResponse: (reply: unknown) => void) => {
    if (message?.type !== 'isSweepTab') return undefined;
    sendResponse({ res: isSweepTab });
    return true;
  }) as never);
}
