// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { parsePlaceUrl } from '../../utils/providers/google/urls';
import { clientRenderer } from '../replica/client-renderer';
import { classesFor, REAL_CLASSES } from '../replica/dom-variants';
import { cardHref, dataParam, placePageUrl, sponsoredCardHref } from '../replica/hrefs';
import { appInitializationState, frameDirect, frameInPage, placeArray, searchResponseData } from '../replica/place-data';
import { createWorld, type ReplicaPlace, worldFromSpecs } from '../replica/world';

const world = createWorld({ seed: 3, places: 3000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 5 });
const client = clientRenderer();

/** This test's own reading of both framings (spec §1.5), independent of the extractor. */
function unframe(text: string): unknown {
  let body = text;
  if (body.endsWith('/*""*/')) {
    const outer = JSON.parse(body.slice(0, -'/*""*/'.length)) as { c: number; d: string };
    expect(outer.c).toBe(0);
    body = outer.d;
  }
  expect(body.startsWith(")]}'\n")).toBe(true);
  return JSON.parse(body.slice(body.indexOf('\n') + 1));
}

/**
 * Walk `!{field}{type}{value}` tokens. `{n}m{k}` spans the next k tokens, nested groups included
 * (`4m7!3m6!…`: 3m6 and its six are the seven of 4m7); every group must end inside its parent.
 */
function checkTokenCounts(data: string): number {
  const tokens = data.split('!').slice(1);
  expect(tokens.every((t) => /^\d+[msdibez]/.test(t))).toBe(true);
  /** Index after the token at `i` (after its whole span for an `m`). */
  const skip = (i: number, parentEnd: number): number => {
    const m = /^(\d+)m(\d+)$/.exec(tokens[i]!);
    if (!m) return i + 1;
    const end = i + 1 + Number(m[2]);
    if (end > parentEnd) throw new Error(`token ${tokens[i]} at ${i} runs past its enclosing group`);
    for (let j = i + 1; j < end; ) j = skip(j, end);
    return end;
  };
  let i = 0;
  while (i < tokens.length) i = skip(i, tokens.length);
  // The top-level group alone spans the whole parameter.
  expect(skip(0, tokens.length)).toBe(tokens.length);
  return tokens.length;
}

const get = (value: unknown, path: number[]): unknown => path.reduce<unknown>((v, k) => (Array.isArray(v) ? v[k] : undefined), value);

describe('replica place URLs', () => {
  it('counts m tokens from the tree (hand-written example)', () => {
    expect(
      dataParam([
        {
          field: 4,
          type: 'm',
          children: [
            {
              field: 3,
              type: 'm',
              children: [
                { field: 1, type: 's', value: 'x' },
                {
                  field: 8,
                  type: 'm',
                  children: [
                    { field: 3, type: 'd', value: 1 },
                    { field: 4, type: 'd', value: 2 },
                  ],
                },
                { field: 16, type: 's', value: 'y' },
                { field: 19, type: 's', value: 'z' },
              ],
            },
          ],
        },
      ]),
    ).toBe('!4m7!3m6!1sx!8m2!3d1!4d2!16sy!19sz');
  });

  it('writes card hrefs of the §1.4 shape whose ids, pin and name read back', () => {
    const shape =
      /^https:\/\/www\.google\.com\/maps\/place\/[^/?]+\/data=!4m7!3m6!1s0x[0-9a-f]+:0x[0-9a-f]+!8m2!3d-?[\d.]+!4d-?[\d.]+!16s%2Fg%2F11[0-9a-z_]{8}!19sChIJ[\w-]+\?authuser=0&hl=en&rclk=1$/;
    for (const p of world.places.slice(0, 300)) {
      const href = cardHref(p);
      expect(href).toMatch(shape);
      const data = /\/data=([^?]+)/.exec(href)![1]!;
      expect(checkTokenCounts(data)).toBe(8);
      expect(parsePlaceUrl(href)).toMatchObject({ cid: p.cid, featureId: p.featureId, placeId: p.placeId, lat: p.lat, lng: p.lng, name: p.name });
      for (const other of [sponsoredCardHref(p), placePageUrl(p)]) {
        expect(other).not.toBe(href);
        checkTokenCounts(/\/data=([^?]+)/.exec(other)![1]!);
        expect(parsePlaceUrl(other).cid).toBe(p.cid);
      }
    }
  });

  it('the page script builds the same hrefs from P as the server does from the place', () => {
    for (const p of world.places.slice(0, 300)) {
      const P = placeArray(p, { signedIn: true, query: 'q' });
      expect(client.cardHref(P, false)).toBe(cardHref(p));
      expect(client.cardHref(P, true)).toBe(sponsoredCardHref(p));
    }
  });
});

describe('replica JSON', () => {
  const places = world.places.slice(0, 20);
  const data = searchResponseData({
    query: 'cafe',
    places,
    finalView: { lat: 37.5665, lng: 126.978, zoom: 15 },
    viewport: { width: 1280, height: 800 },
    signedIn: true,
    sponsored: places[3]!,
  });

  it('round-trips both framings to the same data', () => {
    const inPage = frameInPage(data);
    expect(inPage.startsWith('{"c":0,"d":")]}\'\\n[')).toBe(true);
    expect(inPage.endsWith('}/*""*/')).toBe(true);
    expect(frameDirect(data).startsWith(")]}'\n[")).toBe(true);
    expect(unframe(inPage)).toEqual(data);
    expect(unframe(frameDirect(data))).toEqual(data);
  });

  it('puts each field at its §1.5 path, after a non-place header', () => {
    const decoded = unframe(frameInPage(data));
    const list = get(decoded, [0, 1]) as unknown[];
    expect(list).toHaveLength(21);
    expect(Array.isArray(get(list[0], [14]))).toBe(false);
    places.forEach((p, i) => {
      const P = get(list[i + 1], [14]);
      expect(get(P, [11])).toBe(p.name);
      expect(get(P, [10])).toBe(p.featureId);
      expect(get(P, [78])).toBe(p.placeId);
      expect([get(P, [9, 2]), get(P, [9, 3])]).toEqual([p.lat, p.lng]);
      expect(get(P, [13, 0])).toBe(p.categories[0]);
      expect(get(P, [4, 7])).toBe(p.rating ?? undefined);
      expect(get(P, [4, 8])).toBe(p.reviewCount ?? undefined);
      expect(get(P, [39])).toBe(p.fullAddress);
      expect(get(P, [18])).toBe(`${p.name}, ${p.fullAddress}`);
      expect(get(P, [178, 0, 0])).toBe(p.phone?.display);
      const site = get(P, [7, 0]) as string | undefined;
      if (p.website === null) expect(site).toBeUndefined();
      else if (p.websiteWrapped) expect(new URLSearchParams(site!.split('?')[1]).get('q')).toBe(p.website);
      else expect(site).toBe(p.website);
    });
    expect(get(decoded, [1, 3])).toBe(15);
    expect(get(decoded, [2, 1, 0, 0, 15, 10])).toBe(places[3]!.featureId);
  });

  it('drops the review count when signed out', () => {
    const rated = world.places.find((p) => p.rating !== null)!;
    const P = placeArray(rated, { signedIn: false, query: 'q' });
    expect(get(P, [4, 7])).toBe(rated.rating);
    expect(get(P, [4, 8])).toBeNull();
  });

  it('hides the place in APP_INITIALIZATION_STATE[3]{key}[6] behind the prefix', () => {
    const p = world.places[42]!;
    const state = JSON.parse(JSON.stringify(appInitializationState(p, { lat: p.lat, lng: p.lng, zoom: 17 }, { width: 1024, height: 768 }))) as unknown[];
    const slotObject = state[3] as Record<string, unknown[]>;
    const slot = slotObject[Object.keys(slotObject)[0]!]!;
    const text = slot[6] as string;
    expect(text.startsWith(")]}'\n")).toBe(true);
    const jd = JSON.parse(text.slice(5)) as unknown[];
    expect(get(jd, [6, 11])).toBe(p.name);
    expect(get(jd, [6, 10])).toBe(p.featureId);
    expect(get(jd, [25, 3, 0, 13, 0, 0, 1])).toBe(p.cid);
    expect(get(jd, [4, 3])).toBe(17);
  });
});

describe('replica result cards', () => {
  const spec = worldFromSpecs([
    {
      name: 'Bread & "Butter" <Café>',
      category: 'bakery',
      lat: 37.5,
      lng: 127,
      prominence: 0.5,
      rating: 4.5,
      reviewCount: 1234,
      phone: { display: '02-123-4567', international: '+82 2-123-4567', digits: '+8221234567' },
      website: 'https://bread.example/',
    },
    { name: '카페 온도', category: 'cafe', lat: 37.5, lng: 127.001, prominence: 0.4 },
  ]);
  const [bread, ondo] = spec.places as [ReplicaPlace, ReplicaPlace];

  function renderFeed(places: ReplicaPlace[], opts: { variant?: 'a' | 'b'; signedIn?: boolean; broken?: boolean; sponsored?: ReplicaPlace } = {}): Document {
    const classes = REAL_CLASSES;
    // What the page script does for variant 'b': render with the real names, then rename them all.
    const out = (html: string): string => (opts.variant === 'b' ? client.renameClasses(html) : html);
    document.body.innerHTML = `<div role="main">${out(client.renderFeedShell('cafe', classes))}</div>`;
    const tail = document.querySelector('.replica-tail')!;
    let html = opts.sponsored
      ? client.renderCard(placeArray(opts.sponsored, { signedIn: true, query: 'cafe' }), { classes, position: 0, sponsored: true, broken: false })
      : '';
    places.forEach((p, i) => {
      html += client.renderCard(placeArray(p, { signedIn: opts.signedIn ?? true, query: 'cafe' }), {
        classes,
        position: i + 1,
        sponsored: false,
        broken: opts.broken ?? false,
      });
    });
    tail.insertAdjacentHTML('beforebegin', out(html));
    tail.innerHTML = out(client.renderEnd(classes));
    return document;
  }

  it('carries the stable hooks of §1.2 with the real class names', () => {
    const doc = renderFeed([bread, ondo]);
    const feed = doc.querySelector('div[role="feed"]')!;
    expect(feed.getAttribute('aria-label')).toBe('Results for cafe');
    const cards = [...feed.querySelectorAll('div.Nv2PK[role="article"]')];
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([bread.name, ondo.name]);
    const links = [...feed.querySelectorAll('a.hfpxzc[href*="/maps/place/"][aria-label]')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([cardHref(bread), cardHref(ondo)]);
    expect(cards[0]!.querySelector('.qBF1Pd')!.textContent).toBe(bread.name);
    expect(cards[0]!.querySelector('span[role="img"][aria-label*="stars"]')!.getAttribute('aria-label')).toBe('4.5 stars 1,234 Reviews');
    expect(cards[0]!.querySelector('span.MW4etd')!.textContent).toBe('4.5');
    expect(cards[0]!.querySelector('span.UY7F9')!.textContent).toBe('(1,234)');
    expect(cards[0]!.querySelector('span.UsdlK')!.textContent).toBe('02-123-4567');
    expect(cards[0]!.querySelector('a[data-value="Website"]')!.getAttribute('href')).toBe('https://bread.example/');
    // The second has no rating, phone or website: those hooks are absent, not empty.
    expect(cards[1]!.querySelector('[role="img"][aria-label*="stars"]')).toBeNull();
    expect(cards[1]!.querySelector('span.UsdlK')).toBeNull();
    expect(cards[1]!.querySelector('a[data-value="Website"]')).toBeNull();
    expect(cards[1]!.textContent).toContain('No reviews');
    expect(doc.querySelector('p.fontBodyMedium > span > span.HlvSq')!.textContent).toBe("You've reached the end of the list.");
    // Private-use icon glyphs are part of the card text, as on the real page.
    expect(cards[0]!.textContent).toMatch(/[\uE000-\uF8FF]/);
  });

  it('variant b renames every obfuscated class but keeps the hooks', () => {
    const doc = renderFeed([bread, ondo], { variant: 'b' });
    const realNames = new Set(Object.values(REAL_CLASSES).flatMap((list) => list.split(' ')));
    const present = new Set([...doc.querySelectorAll('[class]')].flatMap((el) => [...el.classList]));
    const kept = [...present].filter((c) => realNames.has(c) || ['lI9IFe', 'y7PRA', 'Z8fK3b', 'L1xEbb', 'D6NGZc'].includes(c));
    expect(kept.sort()).toEqual(['UsdlK', 'fontBodyMedium', 'fontHeadlineSmall'].filter((c) => present.has(c)).sort());
    expect(classesFor('b').card).not.toBe(REAL_CLASSES.card);
    expect(doc.querySelectorAll(`.${classesFor('b').card.split(' ')[0]}`)).toHaveLength(2);
    expect(doc.querySelectorAll('div[role="feed"] [role="article"][aria-label]')).toHaveLength(2);
    expect(doc.querySelectorAll('[role="article"] a[href*="/maps/place/"][aria-label]')).toHaveLength(2);
    expect(doc.querySelector('span[role="img"][aria-label="4.5 stars 1,234 Reviews"]')).not.toBeNull();
    expect(doc.querySelector('span.UsdlK')!.textContent).toBe('02-123-4567');
    expect(doc.querySelector('a[data-value="Website"]')).not.toBeNull();
    expect(doc.querySelector('div[role="feed"]')!.textContent).toContain("You've reached the end of the list.");
  });

  it('signed out shows a bare "4.5 stars" with no count', () => {
    const doc = renderFeed([bread], { signedIn: false });
    expect(doc.querySelector('[role="img"][aria-label*="stars"]')!.getAttribute('aria-label')).toBe('4.5 stars');
    expect(doc.querySelector('.UY7F9')).toBeNull();
  });

  it('marks the sponsored copy and sends its website through /aclk', () => {
    const doc = renderFeed([bread, ondo], { sponsored: bread });
    const cards = [...doc.querySelectorAll('[role="article"]')];
    expect(cards).toHaveLength(3);
    expect(cards[0]!.querySelector('span.jHLihd')!.textContent).toBe('Sponsored');
    expect(cards[0]!.querySelector('[aria-label="Sponsored"]')).not.toBeNull();
    expect(cards[1]!.querySelector('.jHLihd')).toBeNull();
    const adHref = cards[0]!.querySelector('a[href*="/maps/place/"]')!.getAttribute('href')!;
    expect(adHref).not.toBe(cardHref(bread));
    expect(parsePlaceUrl(adHref).cid).toBe(bread.cid);
    expect(cards[0]!.querySelector('a[data-value="Website"]')!.getAttribute('href')).toMatch(/^\/aclk\?.*gclid=/);
  });

  it('broken cards keep role=article but lose every usable href and label', () => {
    const doc = renderFeed([bread, ondo], { broken: true });
    expect(doc.querySelectorAll('[role="article"]')).toHaveLength(2);
    expect(doc.querySelectorAll('[role="article"][aria-label]')).toHaveLength(0);
    expect(doc.querySelectorAll('a[href*="/maps/place/"]')).toHaveLength(0);
    expect(doc.querySelectorAll('a.hfpxzc[aria-label]')).toHaveLength(0);
  });
});
