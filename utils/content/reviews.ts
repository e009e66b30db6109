/**
 * The content-script side of the reviews pass, shared by the sites: answer `reviewsStep`
 * (utils/messaging/reviews-protocol.ts) from the extension's background only: do the one action
 * asked with the site's reader, then wait (bounded) until the page shows what it brought, and
 * say what the page shows. What counts as proof is the background's to judge
 * (utils/reviews/judge.ts); this side only reports.
 */
import type { WxtBrowser as Browser } from 'wxt/browser';
import { onReviewsMessage, type ReviewsAction, type ReviewsStepRequest, type ReviewsView } from '../messaging/reviews-protocol';
import { guarded } from '../messaging/senders';

export interface ReviewsReader<S> {
  newState(): S;
  read(doc: Document, state: S): ReviewsView;
  /** Does the action once; whether there was anything to do. */
  act(doc: Document, action: ReviewsAction, state: S): boolean;
}

export interface StepEnv {
  doc: Document;
  now(): number;
  sleep(ms: number): Promise<void>;
}

const POLL_MS = 100;

/** A few cards' identities: a re-rendered or re-sorted list changes it. */
function signature(v: ReviewsView): string {
  return v.cards
    .slice(0, 3)
    .map((c) => c.id ?? `${c.author}|${c.dateSaid}|${c.text.slice(0, 40)}`)
    .join('\n');
}

/** What each action waits for: the page to show its effect, or nothing more to wait for. */
function settled(action: ReviewsAction, before: ReviewsView, now: ReviewsView): boolean {
  if (now.loading) return false;
  switch (action) {
    case 'look':
      return true;
    case 'open':
      return now.page === 'reviews' && now.cards.length > 0;
    case 'sort-newest':
      // A menu that opened is this step's effect too (the next step chooses in it).
      return signature(now) !== signature(before) || now.order === 'newest' || (now.sortChoiceShown && !before.sortChoiceShown);
    case 'expand':
      return now.cards.every((c) => !c.collapsed);
    case 'more':
      return now.cards.length > before.cards.length || now.endShown;
  }
}

export async function reviewsStep<S>(env: StepEnv, req: ReviewsStepRequest, reader: ReviewsReader<S>, state: S): Promise<ReviewsView> {
  const before = reader.read(env.doc, state);
  if (!reader.act(env.doc, req.action, state)) return before;
  const start = env.now();
  for (;;) {
    await env.sleep(POLL_MS);
    const now = reader.read(env.doc, state);
    if (settled(req.action, before, now) || env.now() - start >= req.settleMs) return now;
  }
}

/** Registers the `reviewsStep` answer for this document; its reader's memory lives as long as the document. */
export function answerReviewsStep<S>(win: Window, browser: Pick<Browser, 'runtime'>, reader: ReviewsReader<S>, opts: { onAsked?(): void } = {}): () => void {
  const state = reader.newState();
  const env: StepEnv = { doc: win.document, now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
  return onReviewsMessage(
    'reviewsStep',
    guarded('reviewsStep', { runtime: browser.runtime }, async (message) => {
      opts.onAsked?.();
      return reviewsStep(env, message.data, reader, state);
    }),
  );
}
