// @vitest-environment happy-dom
/**
 * The replica's Google Reviews tab: its ground truth (reviews.ts), the batch endpoint (reviews-view.ts),
 * the place page's tabs, the panel's own script (client/place-page.js) run in happy-dom with its
 * requests answered in-process by the endpoint's function, the server's route and truth API, and the
 * new switches' validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicaRequest } from '../helpers/replica-request';
import { REVIEW_CLASSES, reviewClassesFor } from '../replica/dom-variants';
import { placePageHtml } from '../replica/pages';
import { placeClient } from '../replica/place-client';
import { googleRelativeDate, REVIEW_SORTS, type ReviewSort, reviewsOf } from '../replica/reviews';
import { answerReviewsXhr, type ReviewClock, reviewsPageConfig, type ServedReview } from '../replica/reviews-view';
import { type Replica, startReplica } from '../replica/server';
import { DEFAULT_SWITCHES, mergeSwitches, type Switches } from '../replica/switches';
import { type ReplicaPlace, worldFromSpecs } from '../replica/world';

const NOW = 1_767_225_600_000; // 2026-01-01
const CLOCK: ReviewClock = { writtenBefore: NOW, now: NOW };
const DAY = 86_400_000;
const at = (i: number, lat: number) => ({ lat: 37.5665 + lat * 0.001, lng: 126.978 + i * 0.001 });
const world = worldFromSpecs([
  { name: 'Dream Coffee', category: 'cafe', ...at(0, 0), prominence: 0.9, rating: 4.3, reviewCount: 2000 },
  { name: 'Haru Noodles', category: 'restaurant', ...at(1, 0), prominence: 0.5, rating: 4.6, reviewCount: 23 },
  { name: 'Bom Pharmacy', category: 'pharmacy', ...at(2, 0), prominence: 0.2, rating: 3, reviewCount: 3 },
  { name: 'Maru Clinic', category: 'clinic', ...at(3, 0), prominence: 0.1 },
  { name: 'Dal Bakery', category: 'cafe', ...at(4, 0), prominence: 0.4, rating: 4, reviewCount: 20 },
]);
const [big, small, few, none, twenty] = world.places as [ReplicaPlace, ReplicaPlace, ReplicaPlace, ReplicaPlace, ReplicaPlace];

interface Batch {
  reviews: ServedReview[];
  next: number | null;
}

function batch(place: ReplicaPlace, sort: ReviewSort, offset: number, n = 10, signedIn = true): Batch {
  const params = new URLSearchParams({ place: place.featureId, sort, offset: String(offset), n: String(n) });
  const answer = answerReviewsXhr(world, signedIn, params, CLOCK);
  expect(answer.status).toBe(200);
  expect(answer.body.startsWith(")]}'\n")).toBe(true);
  return JSON.parse(answer.body.slice(5)) as Batch;
}

/** Every batch of a sort, from the top until `next` is null. */
function walk(place: ReplicaPlace, sort: ReviewSort, n = 10, signedIn = true): { reviews: ServedReview[]; batches: number } {
  const reviews: ServedReview[] = [];
  let offset: number | null = 0;
  let batches = 0;
  while (offset !== null && batches < 1000) {
    const b = batch(place, sort, offset, n, signedIn);
    reviews.push(...b.reviews);
    offset = b.next;
    batches++;
  }
  return { reviews, batches };
}

describe('replica reviews: ground truth', () => {
  it('gives exactly reviewCount reviews, deterministically, with unique ids, newest first, over six years', () => {
    const reviews = reviewsOf(big, NOW);
    expect(reviews).toHaveLength(2000);
    expect(JSON.stringify(reviewsOf(big, NOW))).toBe(JSON.stringify(reviews));
    expect(reviewsOf(none, NOW)).toEqual([]);
    expect(reviewsOf(small, NOW)).toHaveLength(23);
    expect(new Set(reviews.map((r) => r.id)).size).toBe(2000);
    for (const r of reviews) expect(r.id).toMatch(/^ChlDSUhN[A-Za-z0-9_-]+EAE$/);
    // Ids differ between places too.
    expect(reviewsOf(small, NOW).some((r) => reviews.some((b) => b.id === r.id))).toBe(false);
    for (let i = 1; i < reviews.length; i++) expect(reviews[i]!.writtenAt).toBeLessThanOrEqual(reviews[i - 1]!.writtenAt);
    expect(reviews.at(-1)!.writtenAt).toBeGreaterThan(NOW - 6 * 366 * DAY);
    expect(reviews[0]!.writtenAt).toBeGreaterThan(NOW - DAY);
    expect(reviews.every((r) => r.writtenAt <= NOW && [1, 2, 3, 4, 5].includes(r.rating))).toBe(true);
    const mean = reviews.reduce((s, r) => s + r.rating, 0) / reviews.length;
    expect(Math.abs(mean - 4.3)).toBeLessThan(0.001);
    // Another clock moves every date by the same amount and changes nothing else.
    const later = reviewsOf(big, NOW + 7 * DAY);
    expect(
      later.map((r) => ({
        ...r,
        writtenAt: r.writtenAt - 7 * DAY,
        ownerReply: r.ownerReply && { ...r.ownerReply, repliedAt: r.ownerReply.repliedAt - 7 * DAY },
      })),
    ).toEqual(reviews);
  });

  it('mixes rating-only reviews, translations, owner replies, photos and every hostile text', () => {
    const reviews = reviewsOf(big, NOW);
    const texts = reviews.map((r) => r.text);
    expect(texts.filter((t) => t === '').length).toBeGreaterThan(200);
    expect(reviews.some((r) => r.translation !== null && r.text !== r.translation && /[가-힣]/.test(r.text))).toBe(true);
    expect(reviews.every((r) => r.translation === null || r.text !== '')).toBe(true);
    const replies = reviews.filter((r) => r.ownerReply);
    expect(replies.every((r) => r.ownerReply!.repliedAt >= r.writtenAt && r.ownerReply!.repliedAt <= NOW)).toBe(true);
    expect(reviews.some((r) => r.photos > 0) && reviews.every((r) => r.photos >= 0 && r.photos <= 6)).toBe(true);
    expect(texts).toContain('=HYPERLINK("http://x","y")');
    expect(texts.some((t) => /^[+\-@]/.test(t))).toBe(true);
    expect(texts.some((t) => t.includes('<img src=x onerror=alert(1)>'))).toBe(true);
    expect(texts.some((t) => t.includes('\u202e'))).toBe(true);
    expect(texts.some((t) => t.length === 10_000)).toBe(true);
    expect(texts.some((t) => /\p{Extended_Pictographic}/u.test(t))).toBe(true);
    expect(texts.some((t) => t.includes('\n'))).toBe(true);
    expect(texts.some((t) => /[가-힣]/.test(t))).toBe(true);
    expect(texts.some((t) => Array.from(t).length > 200 && t.length < 10_000)).toBe(true);
  });

  it('prints dates as Google does: days under a week, weeks under 30 days, months under a year, then years', () => {
    const ago = (ms: number): string => googleRelativeDate(NOW - ms, NOW);
    const MIN = 60_000;
    const HOUR = 60 * MIN;
    expect(ago(0)).toBe('a minute ago');
    expect(ago(90_000)).toBe('a minute ago');
    expect(ago(5 * MIN)).toBe('5 minutes ago');
    expect(ago(HOUR)).toBe('an hour ago');
    expect(ago(5 * HOUR + 59 * MIN)).toBe('5 hours ago');
    expect(ago(DAY)).toBe('a day ago');
    expect(ago(3 * DAY)).toBe('3 days ago');
    expect(ago(6 * DAY + 23 * HOUR)).toBe('6 days ago');
    expect(ago(7 * DAY)).toBe('a week ago');
    expect(ago(13 * DAY)).toBe('a week ago');
    expect(ago(21 * DAY)).toBe('3 weeks ago');
    expect(ago(29 * DAY)).toBe('4 weeks ago');
    expect(ago(30 * DAY)).toBe('a month ago');
    expect(ago(59 * DAY)).toBe('a month ago');
    expect(ago(335 * DAY)).toBe('11 months ago');
    expect(ago(364 * DAY)).toBe('11 months ago');
    expect(ago(365 * DAY)).toBe('a year ago');
    expect(ago(2 * 365 * DAY)).toBe('2 years ago');
    expect(googleRelativeDate(NOW + DAY, NOW)).toBe('a minute ago');
  });
});

describe('replica reviews: the batch endpoint', () => {
  it('walks every sort in batches to the last review, then says there is no next', () => {
    const truth = reviewsOf(small, NOW);
    const index = new Map(truth.map((r, i) => [r.id, i]));
    const orders = Object.fromEntries(
      REVIEW_SORTS.map((sort) => {
        const { reviews, batches } = walk(small, sort);
        expect(batches).toBe(3);
        expect(reviews).toHaveLength(23);
        expect(new Set(reviews.map((r) => r.id)).size).toBe(23);
        return [sort, reviews.map((r) => index.get(r.id)!)];
      }),
    ) as Record<ReviewSort, number[]>;
    expect(orders.newest).toEqual(truth.map((_, i) => i));
    const byRating = (dir: 1 | -1) => truth.map((r, i) => ({ r: r.rating, i })).sort((a, b) => dir * (a.r - b.r) || a.i - b.i);
    expect(orders.highest).toEqual(byRating(-1).map((x) => x.i));
    expect(orders.lowest).toEqual(byRating(1).map((x) => x.i));
    expect(orders.relevant).not.toEqual(orders.newest);
    expect(walk(small, 'relevant').reviews.map((r) => r.id)).toEqual(orders.relevant.map((i) => truth[i]!.id));
    // Exactly two batches of 10, the second saying it is the last.
    expect(batch(twenty, 'newest', 10).next).toBeNull();
    expect(walk(twenty, 'newest', 20).batches).toBe(1);
    expect(batch(small, 'newest', 23).reviews).toEqual([]);
  });

  it('serves the texts as they are, with dates printed by the clock', () => {
    const truth = reviewsOf(big, NOW);
    const served = walk(big, 'newest', 100).reviews;
    expect(served.map((r) => r.text)).toEqual(truth.map((r) => r.text));
    expect(served.map((r) => r.date)).toEqual(truth.map((r) => googleRelativeDate(r.writtenAt, NOW)));
    const replied = truth.findIndex((r) => r.ownerReply);
    expect(served[replied]!.ownerReply).toEqual({
      text: truth[replied]!.ownerReply!.text,
      date: googleRelativeDate(truth[replied]!.ownerReply!.repliedAt, NOW),
    });
  });

  it('stops at five signed out, and refuses bad requests', () => {
    expect(walk(big, 'newest', 10, false).reviews).toHaveLength(5);
    expect(batch(big, 'newest', 5, 10, false)).toEqual({ reviews: [], next: null });
    expect(walk(few, 'newest', 10, false).reviews).toHaveLength(3);
    const status = (q: Record<string, string>) => answerReviewsXhr(world, true, new URLSearchParams(q), CLOCK).status;
    expect(status({ place: '0x1:0x2', sort: 'newest', offset: '0', n: '10' })).toBe(404);
    expect(status({ place: big.featureId, sort: 'oldest', offset: '0', n: '10' })).toBe(400);
    expect(status({ place: big.featureId, sort: 'newest', offset: '-1', n: '10' })).toBe(400);
    expect(status({ place: big.featureId, sort: 'newest', offset: '0', n: '0' })).toBe(400);
    expect(status({ place: big.featureId, sort: 'newest', offset: '0', n: '101' })).toBe(400);
  });
});

const VIEW = { lat: 37.5665, lng: 126.978, zoom: 17 };

function pageHtml(place: ReplicaPlace, switches: Switches, lang?: 'en' | 'ko'): string {
  return placePageHtml({
    place,
    view: VIEW,
    variant: switches.domVariant,
    signedIn: switches.signedIn,
    canonicalUrl: null,
    lang,
    reviews: { switches, clock: CLOCK },
  });
}

describe('replica reviews: the place page', () => {
  it('has the Overview / Reviews / About tabs only signed in and only when the place has reviews', () => {
    const doc = (place: ReplicaPlace, signedIn: boolean, lang?: 'en' | 'ko') =>
      new DOMParser().parseFromString(pageHtml(place, { ...DEFAULT_SWITCHES, signedIn }, lang), 'text/html');
    const signedIn = doc(small, true);
    const tabs = [...signedIn.querySelectorAll('[role="tablist"] [role="tab"]')];
    expect(tabs.map((t) => t.textContent)).toEqual(['Overview', 'Reviews', 'About']);
    expect(tabs[1]!.getAttribute('aria-label')).toBe('Reviews for Haru Noodles');
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
    expect(pageHtml(small, DEFAULT_SWITCHES)).toContain('replicaPlacePage(');
    expect(doc(small, false).querySelector('[role="tablist"]')).toBeNull();
    expect(doc(none, true).querySelector('[role="tablist"]')).toBeNull();
    expect(pageHtml(none, DEFAULT_SWITCHES)).not.toContain('replicaPlacePage(');
    const ko = [...doc(small, true, 'ko').querySelectorAll('[role="tab"]')];
    expect(ko.map((t) => t.textContent)).toEqual(['개요', '리뷰', '정보']);
    expect(ko[1]!.getAttribute('aria-label')).toBe('Haru Noodles 리뷰');
  });
});

interface PageRun {
  doc: Document;
  requests: string[];
  /** Run queued timers and request answers until nothing is left. */
  settle(): void;
  scroll(): void;
  panel(): Element;
  cards(): Element[];
  click(el: Element | null | undefined): void;
}

/** The place page in its own happy-dom document with its script running, requests answered in-process. */
function openPage(place: ReplicaPlace, partial: Partial<Switches> = {}): PageRun {
  const switches = mergeSwitches(DEFAULT_SWITCHES, partial);
  const doc = new DOMParser().parseFromString(pageHtml(place, switches), 'text/html');
  const tasks: (() => void)[] = [];
  const requests: string[] = [];
  class FakeXhr {
    url = '';
    status = 0;
    responseText = '';
    responseURL = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open(_method: string, url: string): void {
      this.url = url;
    }
    send(): void {
      requests.push(this.url);
      tasks.push(() => {
        const answer = answerReviewsXhr(world, switches.signedIn, new URLSearchParams(this.url.split('?')[1]), CLOCK);
        this.status = answer.status;
        this.responseText = answer.body;
        this.responseURL = `https://www.google.com${this.url}`;
        this.onload?.();
      });
    }
  }
  const win = { document: doc, XMLHttpRequest: FakeXhr, setTimeout: (fn: () => void) => tasks.push(fn), location: { href: '' } };
  const config = reviewsPageConfig(place, switches.signedIn, { switches, clock: CLOCK }, reviewClassesFor(switches.domVariant))!;
  placeClient().replicaPlacePage(config, win);
  // The Reviews panel is added after the overview, as the main panel's last child.
  const panel = (): Element => doc.querySelector('[role="main"]')!.lastElementChild!;
  return {
    doc,
    requests,
    settle() {
      for (let guard = 0; tasks.length && guard < 1000; guard++) tasks.shift()!();
    },
    scroll() {
      panel().dispatchEvent(new Event('scroll'));
    },
    panel,
    cards: () => [...panel().querySelectorAll('[aria-label][jsaction^="mouseover:pane.review"]')],
    click(el) {
      expect(el).toBeTruthy();
      (el as HTMLElement).click();
    },
  };
}

function openReviews(place: ReplicaPlace, partial: Partial<Switches> = {}): PageRun {
  const run = openPage(place, partial);
  run.click(run.doc.querySelector('[role="tab"][aria-label^="Reviews for"]'));
  return run;
}

/** Scroll until the panel shows at least `n` cards (or nothing more loads). */
function loadAtLeast(run: PageRun, n: number): void {
  run.settle();
  for (let guard = 0; run.cards().length < n && guard < 500; guard++) {
    run.scroll();
    run.settle();
  }
}

describe('replica reviews: the Reviews panel', () => {
  it('opens on the tab with its summary, then loads a batch per scroll with a progress bar, to the end', () => {
    const run = openReviews(small);
    const { doc } = run;
    expect(doc.querySelector('[role="tab"][data-tab-index="1"]')!.getAttribute('aria-selected')).toBe('true');
    expect((doc.querySelector('[role="region"]')!.parentElement as HTMLElement).style.display).toBe('none');
    expect(run.panel().getAttribute('style')).toContain('overflow-y:auto');
    expect(run.panel().querySelector('[aria-label="23 reviews"]')!.textContent).toBe('23 reviews');
    const rows = [...run.panel().querySelectorAll('tr[role="img"]')].map((r) => r.getAttribute('aria-label'));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(/^5 stars, \d+ reviews?$/);
    expect(rows[4]).toMatch(/^1 star, \d+ reviews?$/);
    expect(run.panel().querySelector('[role="progressbar"]')).not.toBeNull();
    run.settle();
    expect(run.panel().querySelector('[role="progressbar"]')).toBeNull();
    expect(run.cards()).toHaveLength(10);
    run.scroll();
    expect(run.panel().querySelector('[role="progressbar"]')).not.toBeNull();
    run.settle();
    run.scroll();
    run.settle();
    expect(run.cards()).toHaveLength(23);
    run.scroll();
    run.settle();
    expect(run.requests).toHaveLength(3);
    expect(run.requests[0]).toBe(`/maps/rpc/listugcposts?place=${encodeURIComponent(small.featureId)}&sort=relevant&offset=0&n=10`);
    // The default end: nothing after the last card.
    expect(run.panel().textContent).not.toContain('end of the reviews');
    const relevant = walk(small, 'relevant').reviews;
    expect(run.cards().map((c) => c.getAttribute('data-review-id'))).toEqual(relevant.map((r) => r.id));
    expect(run.cards().map((c) => c.getAttribute('aria-label'))).toEqual(relevant.map((r) => r.author));
    // Back to the overview and in again: the panel is kept, nothing reloads.
    run.click(doc.querySelector('[role="tab"][data-tab-index="0"]'));
    expect((run.panel() as HTMLElement).style.display).toBe('none');
    run.click(doc.querySelector('[role="tab"][data-tab-index="1"]'));
    run.settle();
    expect(run.requests).toHaveLength(3);
  });

  it('prints each card: author, stars, date, text, photos, the owner response', () => {
    const run = openReviews(big, { reviewsDefaultSort: 'newest', reviewsBatchSize: 20, reviewsExpander: 'none' });
    run.settle();
    for (let i = 0; i < 10; i++) {
      run.scroll();
      run.settle();
    }
    const truth = reviewsOf(big, NOW).slice(0, 220);
    const cards = run.cards();
    expect(run.requests.every((u) => u.includes('&n=20'))).toBe(true);
    expect(cards).toHaveLength(220);
    cards.forEach((card, i) => {
      const r = truth[i]!;
      expect(card.getAttribute('data-review-id')).toBe(r.id);
      expect(card.querySelector('span[role="img"]')!.getAttribute('aria-label')).toBe(r.rating === 1 ? '1 star' : `${r.rating} stars`);
      expect(card.querySelector(`.${REVIEW_CLASSES.date}`)!.textContent).toBe(googleRelativeDate(r.writtenAt, NOW));
      expect(card.querySelector(`.${REVIEW_CLASSES.body} .${REVIEW_CLASSES.text}`)?.textContent ?? '').toBe(r.translation ?? r.text);
      expect(card.querySelectorAll('[aria-label^="Photo "][aria-label$="\'s review"]')).toHaveLength(r.photos);
      if (r.photos) expect(card.querySelector('[aria-label^="Photo 1 on"]')!.getAttribute('aria-label')).toBe(`Photo 1 on ${r.author}'s review`);
      const reply = card.querySelector(`.${REVIEW_CLASSES.reply}`);
      expect(reply === null).toBe(r.ownerReply === null);
      if (reply) {
        expect(reply.textContent).toContain('Response from the owner');
        expect(reply.querySelector(`.${REVIEW_CLASSES.replyDate}`)!.textContent).toBe(googleRelativeDate(r.ownerReply!.repliedAt, NOW));
        expect(reply.querySelector(`.${REVIEW_CLASSES.text}`)!.textContent).toBe(r.ownerReply!.text);
      }
    });
    // Hostile texts stay text: no element came from a review.
    expect(run.panel().querySelector('img, script')).toBeNull();
  });

  it('sorts from a menu, from chips, or not at all; a choice reloads from the top', () => {
    const truth = reviewsOf(small, NOW);
    const menuRun = openReviews(small);
    menuRun.settle();
    const sortButton = menuRun.panel().querySelector('button[aria-label="Sort reviews"]')!;
    expect(sortButton.textContent).toBe('\ue164Sort');
    expect(menuRun.panel().querySelector('[role="menu"]')).toBeNull();
    menuRun.click(sortButton);
    const items = [...menuRun.panel().querySelectorAll('[role="menu"] [role="menuitemradio"]')];
    expect(items.map((i) => i.textContent)).toEqual(['Most relevant', 'Newest', 'Highest rating', 'Lowest rating']);
    expect(items.map((i) => i.getAttribute('aria-checked'))).toEqual(['true', 'false', 'false', 'false']);
    menuRun.click(items[3]);
    expect(menuRun.panel().querySelector('[role="menu"]')).toBeNull();
    expect(menuRun.cards()).toHaveLength(0);
    menuRun.settle();
    const lowest = [...truth].map((r, i) => ({ r, i })).sort((a, b) => a.r.rating - b.r.rating || a.i - b.i);
    expect(menuRun.cards().map((c) => c.getAttribute('data-review-id'))).toEqual(lowest.slice(0, 10).map((x) => x.r.id));
    expect(menuRun.requests.at(-1)).toContain('sort=lowest&offset=0');
    menuRun.click(sortButton);
    expect(menuRun.panel().querySelector('[role="menuitemradio"][aria-checked="true"]')!.textContent).toBe('Lowest rating');

    const chipsRun = openReviews(small, { reviewsSort: 'chips', reviewsDefaultSort: 'newest' });
    const group = chipsRun.panel().querySelector('[role="radiogroup"][aria-label="Sort reviews"]')!;
    const chips = [...group.querySelectorAll('[role="radio"]')];
    expect(chips.map((c) => [c.textContent, c.getAttribute('aria-checked')])).toEqual([
      ['Most relevant', 'false'],
      ['Newest', 'true'],
      ['Highest rating', 'false'],
      ['Lowest rating', 'false'],
    ]);
    // A choice while the first batch is still loading: only the new order arrives.
    chipsRun.click(chips[2]);
    chipsRun.settle();
    expect(chipsRun.requests).toEqual([placeClient().reviewsRequestUrl(small.featureId, 'highest', 0, 10)]);
    expect(chips[2]!.getAttribute('aria-checked')).toBe('true');
    const highest = [...truth].map((r, i) => ({ r, i })).sort((a, b) => b.r.rating - a.r.rating || a.i - b.i);
    expect(chipsRun.cards().map((c) => c.getAttribute('data-review-id'))).toEqual(highest.slice(0, 10).map((x) => x.r.id));

    const absent = openReviews(small, { reviewsSort: 'absent' });
    expect(absent.panel().querySelector('[aria-label="Sort reviews"]')).toBeNull();
  });

  it('cuts long texts behind "More" or "See more", or not at all', () => {
    const served = walk(big, 'relevant').reviews;
    const longIndex = served.findIndex((r) => Array.from(r.translation ?? r.text).length > 200);
    expect(longIndex).toBeGreaterThanOrEqual(0);
    const whole = served[longIndex]!.translation ?? served[longIndex]!.text;
    const textOf = (card: Element) => card.querySelector(`.${REVIEW_CLASSES.body} .${REVIEW_CLASSES.text}`)!.textContent;

    const more = openReviews(big);
    loadAtLeast(more, longIndex + 1);
    let card = more.cards()[longIndex]!;
    expect(textOf(card)).toBe(`${Array.from(whole).slice(0, 200).join('')}…`);
    const button = card.querySelector('button[aria-label="See more"]')!;
    expect([button.textContent, button.getAttribute('aria-expanded')]).toEqual(['More', 'false']);
    const shown = served.slice(0, more.cards().length);
    expect(more.cards().filter((c) => c.querySelector('[aria-label="See more"]'))).toHaveLength(
      shown.filter((r) => Array.from(r.translation ?? r.text).length > 200).length,
    );
    more.click(button);
    expect(textOf(card)).toBe(whole);
    expect(card.querySelector('[aria-label="See more"]')).toBeNull();

    const link = openReviews(big, { reviewsExpander: 'see-more-link' });
    loadAtLeast(link, longIndex + 1);
    card = link.cards()[longIndex]!;
    const span = card.querySelector('span[role="button"][tabindex="0"]')!;
    expect([span.textContent, span.hasAttribute('aria-label')]).toEqual(['See more', false]);
    expect(card.querySelector('button[aria-label="See more"]')).toBeNull();
    link.click(span);
    expect(textOf(card)).toBe(whole);

    const uncut = openReviews(big, { reviewsExpander: 'none' });
    loadAtLeast(uncut, longIndex + 1);
    expect(textOf(uncut.cards()[longIndex]!)).toBe(whole);
    expect(uncut.panel().textContent).not.toContain('See more');
  });

  it('puts the review id on the card, on a child, or nowhere', () => {
    const ids = walk(small, 'relevant')
      .reviews.slice(0, 10)
      .map((r) => r.id);
    const child = openReviews(small, { reviewsIdLocation: 'child' });
    child.settle();
    expect(child.cards().map((c) => c.hasAttribute('data-review-id'))).toEqual(ids.map(() => false));
    expect(child.cards().map((c) => c.querySelector('button[data-review-id]')!.getAttribute('data-review-id'))).toEqual(ids);
    const hidden = openReviews(small, { reviewsIdLocation: 'none' });
    hidden.settle();
    expect(hidden.cards()).toHaveLength(10);
    expect(hidden.doc.querySelector('[data-review-id]')).toBeNull();
    expect(hidden.doc.body.innerHTML).not.toContain(ids[0]);
  });

  it('ends with a sentence when switched on', () => {
    const run = openReviews(few, { reviewsEnd: 'sentence' });
    run.settle();
    expect(run.cards()).toHaveLength(3);
    expect(run.panel().lastElementChild!.textContent).toBe("You've reached the end of the reviews");
  });

  it('shows a translation with a "See original" toggle, or the original only', () => {
    const served = walk(big, 'newest', 20).reviews;
    const first = served.findIndex((r) => r.translation !== null);
    expect(first).toBeGreaterThanOrEqual(0);
    const run = openReviews(big, { reviewsDefaultSort: 'newest', reviewsBatchSize: 20, reviewsExpander: 'none' });
    loadAtLeast(run, first + 1);
    const card = run.cards()[first]!;
    const textOf = () => card.querySelector(`.${REVIEW_CLASSES.body} .${REVIEW_CLASSES.text}`)!.textContent;
    expect(textOf()).toBe(served[first]!.translation);
    const toggle = [...card.querySelectorAll('[role="button"]')].find((b) => b.textContent === 'See original')!;
    run.click(toggle);
    expect(textOf()).toBe(served[first]!.text);
    run.click([...card.querySelectorAll('[role="button"]')].find((b) => b.textContent === 'See translation'));
    expect(textOf()).toBe(served[first]!.translation);

    const plain = openReviews(big, { reviewsDefaultSort: 'newest', reviewsBatchSize: 20, reviewsTranslated: false, reviewsExpander: 'none' });
    loadAtLeast(plain, first + 1);
    const plainCard = plain.cards()[first]!;
    expect(plainCard.querySelector(`.${REVIEW_CLASSES.body} .${REVIEW_CLASSES.text}`)!.textContent).toBe(served[first]!.text);
    expect(plain.panel().textContent).not.toContain('See original');
  });

  it('signed out: no tabs, at most five reviews in the overview, nothing loads', () => {
    const run = openPage(big, { signedIn: false });
    run.settle();
    expect(run.doc.querySelector('[role="tablist"]')).toBeNull();
    const cards = [...run.doc.querySelectorAll(`.${REVIEW_CLASSES.overviewReviews} > [aria-label]`)];
    expect(cards.map((c) => c.getAttribute('data-review-id'))).toEqual(
      walk(big, 'relevant')
        .reviews.slice(0, 5)
        .map((r) => r.id),
    );
    expect(run.requests).toEqual([]);
    const three = openPage(few, { signedIn: false });
    expect(three.doc.querySelectorAll(`.${REVIEW_CLASSES.overviewReviews} > [aria-label]`)).toHaveLength(3);
  });

  it('variant b keeps the hooks with none of the real class names', () => {
    const run = openReviews(small, { domVariant: 'b' });
    run.settle();
    expect(run.cards()).toHaveLength(10);
    expect(run.cards()[0]!.getAttribute('data-review-id')).toMatch(/^Ch/);
    expect(run.panel().querySelector('[aria-label="23 reviews"]')).not.toBeNull();
    expect(run.doc.querySelector(`.${REVIEW_CLASSES.card.split(' ')[0]}, .${REVIEW_CLASSES.text}, .${REVIEW_CLASSES.overview}`)).toBeNull();
  });
});

describe('replica reviews: server and switches', () => {
  let replica: Replica;
  let clock = NOW;
  beforeAll(async () => {
    replica = await startReplica({ world, now: () => clock });
  });
  afterAll(async () => {
    await replica.close();
  });

  it('serves the batches as XHRs the captcha counts, and tells the truth by the clock', async () => {
    const get = (path: string) => replicaRequest(replica.port, 'www.google.com', path);
    const url = placeClient().reviewsRequestUrl(small.featureId, 'newest', 0, 10);
    const before = replica.xhrs();
    const first = await get(url);
    expect(first.status).toBe(200);
    expect(replica.xhrs()).toBe(before + 1);
    expect(replica.requests.at(-1)).toMatchObject({ path: url, kind: 'xhr' });
    const served = (JSON.parse(first.body.slice(5)) as Batch).reviews;
    const truth = replica.reviewsTruth(small.placeId);
    expect(truth).toHaveLength(23);
    expect(served.map((r) => [r.id, r.date])).toEqual(truth.slice(0, 10).map((r) => [r.id, r.dateText]));
    expect(replica.reviewsTruth(small.cid)).toEqual(truth);
    expect(replica.reviewsCount(small.featureId)).toBe(23);
    expect(replica.reviewsCount(none.placeId)).toBe(0);
    expect(() => replica.reviewsCount('ChIJnope')).toThrow();
    // The clock moves on: the same reviews, older.
    clock += 400 * DAY;
    expect(replica.reviewsTruth(small.placeId).map((r) => r.id)).toEqual(truth.map((r) => r.id));
    expect(replica.reviewsTruth(small.placeId)[0]!.dateText).toMatch(/^(a|\d+) years? ago$/);
    // An XHR, not a page: no consent wall, but the captcha's count.
    replica.setSwitches({ consent: true });
    expect((await get(url)).status).toBe(200);
    replica.setSwitches({ consent: false, captchaAfter: 0 });
    expect((await get(url)).status).toBe(302);
    replica.setSwitches({ captchaAfter: null });
    const page = await get(`/maps?cid=${small.cid}`);
    expect(page.body).toContain('role="tablist"');
  });

  it('refuses bad values of every reviews switch', () => {
    const bad: Partial<Record<keyof Switches, unknown>> = {
      reviewsBatchSize: 15,
      reviewsSort: 'dropdown',
      reviewsDefaultSort: 'oldest',
      reviewsExpander: 'expand',
      reviewsIdLocation: 'attribute',
      reviewsEnd: 'spinner',
      reviewsTranslated: 'yes',
      reviewsJitterMs: -1,
    };
    for (const [key, value] of Object.entries(bad)) {
      expect(() => mergeSwitches(DEFAULT_SWITCHES, { [key]: value } as Partial<Switches>)).toThrow(key);
    }
    expect(() => replica.setSwitches({ reviewsBatchSize: '10' as unknown as 10 })).toThrow('reviewsBatchSize must be one of 10, 20');
    const good = mergeSwitches(DEFAULT_SWITCHES, {
      reviewsBatchSize: 20,
      reviewsSort: 'chips',
      reviewsDefaultSort: 'newest',
      reviewsExpander: 'see-more-link',
      reviewsIdLocation: 'none',
      reviewsEnd: 'sentence',
      reviewsTranslated: false,
      reviewsJitterMs: 250,
    });
    expect(good).toMatchObject({ reviewsBatchSize: 20, reviewsSort: 'chips', reviewsJitterMs: 250, reviewsTranslated: false });
    expect(DEFAULT_SWITCHES).toMatchObject({
      reviewsBatchSize: 10,
      reviewsSort: 'menu',
      reviewsDefaultSort: 'relevant',
      reviewsExpander: 'more',
      reviewsIdLocation: 'card',
      reviewsEnd: 'nothing',
      reviewsTranslated: true,
      reviewsJitterMs: 0,
    });
  });
});
