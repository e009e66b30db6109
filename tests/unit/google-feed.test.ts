// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { extractFeed } from '../../utils/providers/google/feed';
import { idsFromPair } from '../../utils/providers/google/ids';

const parse = (html: string): Document => new DOMParser().parseFromString(html, 'text/html');

// Hand-written cards in the §1.2 shape; the real captures are in google-real-pages.test.ts.

interface CardSpec {
  name: string;
  hi?: bigint;
  lo: bigint;
  href?: string;
  label?: string | null;
  countText?: string | null;
  lines?: string[];
  phone?: string;
  website?: string;
  websiteLabel?: string;
  sponsored?: boolean;
  lat?: number;
  lng?: number;
}

function placeHref(c: CardSpec): string {
  const ids = idsFromPair(c.hi ?? 0x47c609e91734d71bn, c.lo);
  const name = encodeURIComponent(c.name).replace(/%20/g, '+');
  return (
    `https://www.google.com/maps/place/${name}/data=!4m7!3m6!1s${ids.featureId}` +
    `!8m2!3d${c.lat ?? 52.37}!4d${c.lng ?? 4.89}!16s%2Fg%2F11x!19s${ids.placeId}?authuser=0&hl=en&rclk=1`
  );
}

function cardHtml(c: CardSpec): string {
  const rating =
    c.label === null
      ? ''
      : `<div class="W4Efsd"><div class="AJB7ye"><span class="e4rVHe fontBodyMedium"><span role="img" class="ZkP5Je" aria-label="${c.label ?? '4.5 stars 1,234 Reviews'}"><span class="MW4etd" aria-hidden="true">4.5</span>${c.countText === null ? '' : `<span class="UY7F9" aria-hidden="true">${c.countText ?? '(1,234)'}</span>`}</span></span></div></div>`;
  const lines = (c.lines ?? ['<span><span>Restaurant</span></span><span> <span aria-hidden="true">·</span> <span>123 Main St</span></span>'])
    .map((l) => `<div class="W4Efsd">${l}</div>`)
    .join('');
  const phoneLine = c.phone ? `<div class="W4Efsd"><span>Open ⋅ Closes 10 pm</span><span> · <span class="UsdlK">${c.phone}</span></span></div>` : '';
  const website = c.website
    ? `<a class="lcr4fd" data-value="Website" aria-label="${c.websiteLabel ?? `Visit ${c.name}'s website`}" href="${c.website}"></a>`
    : '';
  const ad = c.sponsored ? '<h1 aria-label="Sponsored"><span class="jHLihd">Sponsored</span></h1>' : '';
  return `<div><div role="article" class="Nv2PK THOPZb CpccDe" aria-label="${c.name}" jsaction="mouseover:pane.x;mouseout:pane.x">
    <a class="hfpxzc" aria-label="${c.name}" href="${c.href ?? placeHref(c)}"></a>
    <div class="bfdHYd">${ad}<div class="UaQhfb fontBodyMedium">
      <div class="NrDZNb"><div class="qBF1Pd fontHeadlineSmall">${c.name}</div></div>
      ${rating}<div class="W4Efsd">${lines}${phoneLine}</div>
    </div>${website}<button>Directions</button></div></div></div>`;
}

function feedPage(cards: CardSpec[], tail = ''): Document {
  return parse(`<div role="main"><div role="feed" aria-label="Results for pizza">${cards.map(cardHtml).join('')}${tail}</div></div>`);
}

describe('cards in both rating label forms', () => {
  it('signed in: count from the label', () => {
    const [l] = extractFeed(feedPage([{ name: 'A', lo: 1n, label: '4.5 stars 1,234 Reviews', countText: '(9)' }])).listings;
    expect([l!.rating, l!.reviews]).toEqual([4.5, 1234]);
  });

  it('limited view: bare "4.9 stars", count from the "(…)" text beside it, or none', () => {
    const out = extractFeed(
      feedPage([
        { name: 'B', lo: 2n, label: '4.9 stars', countText: '(2,048)' },
        { name: 'C', lo: 3n, label: '4.9 stars', countText: null },
      ]),
    ).listings;
    expect(out.map((l) => [l.name, l.rating, l.reviews])).toEqual([
      ['B', 4.9, 2048],
      ['C', 4.9, null],
    ]);
  });

  it('a card without any rating keeps category and address', () => {
    const [l] = extractFeed(feedPage([{ name: 'New place', lo: 4n, label: null }])).listings;
    expect(l).toMatchObject({ rating: null, reviews: null, category: 'Restaurant', address: '123 Main St' });
  });
});

describe('sponsored duplicates', () => {
  it('keeps the organic card when an ad repeats the same place (whichever comes first)', () => {
    const place = { name: 'Luigi', lo: 77n };
    for (const order of [
      [{ ...place, sponsored: true, website: '/aclk?sa=L&adurl=' }, place],
      [place, { ...place, sponsored: true }],
    ]) {
      const out = extractFeed(feedPage(order));
      expect(out.cardsVisible).toBe(2);
      expect(out.listings).toHaveLength(1);
      expect(out.listings[0]!.sponsored).toBe(false);
    }
  });

  it('recognises an ad by its /aclk link when the label is in another language', () => {
    const html = cardHtml({ name: 'Werbung', lo: 5n }).replace(
      '<button>',
      '<a class="bm892c" aria-label="Anzeige" href="/aclk?sa=L&amp;gclid=x&amp;adurl="></a><button>',
    );
    const out = extractFeed(parse(`<div role="feed">${html}</div>`));
    expect(out.listings[0]!.sponsored).toBe(true);
  });
});

describe('phone and website', () => {
  it('reads the phone (UsdlK) and website (data-value=Website) of a card', () => {
    const [l] = extractFeed(feedPage([{ name: 'Joe', lo: 10n, phone: '+1 305-440-0878', website: 'https://joes.example/menu' }])).listings;
    expect(l).toMatchObject({ phone: '+1 305-440-0878', website: 'https://joes.example/menu', address: '123 Main St' });
  });

  it('finds the website by its "Visit … website" label and unwraps /url?q=', () => {
    const html = cardHtml({ name: 'Ann', lo: 11n }).replace(
      '<button>',
      '<a aria-label="Visit Ann\'s website" href="/url?q=https://ann.example/&amp;sa=U"></a><button>',
    );
    expect(extractFeed(parse(`<div role="feed">${html}</div>`)).listings[0]!.website).toBe('https://ann.example/');
  });

  it('a card without a website link has website null (a signal, not a gap)', () => {
    const [l] = extractFeed(feedPage([{ name: 'Bo', lo: 12n }])).listings;
    expect(l!.website).toBeNull();
    expect(l!.phone).toBeNull();
  });

  it('drops an ad redirect with no destination', () => {
    const [l] = extractFeed(feedPage([{ name: 'Ad', lo: 13n, website: '/aclk?sa=L&gclid=abc&adurl=' }])).listings;
    expect(l!.website).toBeNull();
  });

  it('recognises a phone without the UsdlK class by its shape', () => {
    const lines = [
      '<span>Pizza</span><span> · </span><span>9 Via Roma</span>',
      '<span>Open ⋅ Closes 11 pm</span><span> · </span><span>+39 06 1234 5678</span>',
    ];
    const [l] = extractFeed(feedPage([{ name: 'Roma', lo: 14n, lines }])).listings;
    expect(l).toMatchObject({ category: 'Pizza', address: '9 Via Roma', phone: '+39 06 1234 5678' });
  });

  it('skips the price between category and address', () => {
    const lines = ['<span>Steak</span><span> · </span><span>$$$</span><span> · </span><span>1 Elm St</span>'];
    const [l] = extractFeed(feedPage([{ name: 'Elm', lo: 15n, lines }])).listings;
    expect([l!.category, l!.address]).toEqual(['Steak', '1 Elm St']);
  });
});

describe('the bottom of the feed', () => {
  it('reports the end-of-list text and the spinner', () => {
    const end = '<div class="PbZDve"><p class="fontBodyMedium"><span><span class="HlvSq">You\'ve reached the end of the list.</span></span></p></div>';
    expect(extractFeed(feedPage([{ name: 'A', lo: 1n }], end)).endOfList).toBe(true);
    const spinner = '<div class="lXJj5c Hk4XGb"><div class="OBAKjf"></div></div>';
    const loading = extractFeed(feedPage([{ name: 'A', lo: 1n }], spinner));
    expect([loading.loading, loading.endOfList]).toEqual([true, false]);
    const hidden = '<div class="lXJj5c Hk4XGb" style="display:none"></div>';
    expect(extractFeed(feedPage([{ name: 'A', lo: 1n }], hidden)).loading).toBe(false);
  });
});

describe('cards visible but unreadable', () => {
  it('counts cards whose hrefs carry no place id, and extracts none of them', () => {
    const broken = [
      { name: 'X', lo: 1n, href: 'https://www.google.com/maps/place/X/data=!4m2!3m1!1sNOTANID' },
      { name: 'Y', lo: 2n, href: '/maps/place/Y/@52.3,4.9,17z' },
      { name: 'Z', lo: 3n, href: 'https://www.google.com/maps/place/Z/data=!1s0x1:0x2!19sChIJlZ1jG6NZwokRQIXt47NzppA' },
    ];
    const out = extractFeed(feedPage(broken));
    expect(out.cardsVisible).toBe(3);
    expect(out.listings).toEqual([]);
    expect(out.warnings.join(' ')).toMatch(/3 of 3 result cards had no readable place id/);
  });

  it('still counts cards when role=article is gone but the place links remain', () => {
    const html = [1n, 2n]
      .map((lo) => `<div jsaction="mouseover:pane.y"><a aria-label="P${lo}" href="${placeHref({ name: `P${lo}`, lo })}"></a></div>`)
      .join('');
    const out = extractFeed(parse(`<div role="feed">${html}</div>`));
    expect(out.cardsVisible).toBe(2);
    expect(out.listings.map((l) => l.name)).toEqual(['P1', 'P2']);
  });

  it('a page with no feed gives nothing and does not throw', () => {
    expect(extractFeed(parse('<div role="main"><h1>Hello</h1></div>'))).toEqual({
      feed: null,
      cardsVisible: 0,
      listings: [],
      endOfList: false,
      loading: false,
      warnings: [],
    });
  });
});

describe('hostile card text', () => {
  it('bounds huge names and refuses out-of-range pins', () => {
    const long = 'N'.repeat(10_000);
    const out = extractFeed(feedPage([{ name: long, lo: 9n, lat: 123.4, lng: 4.9 }])).listings[0]!;
    expect(out.name.length).toBeLessThanOrEqual(300);
    expect([out.lat, out.lng]).toEqual([null, null]);
  });
});

describe('info lines when the page shifts under us', () => {
  it('does not take "No reviews" for the category of an unrated place', () => {
    const doc = feedPage([
      {
        name: 'Quiet Cafe',
        lo: 991n,
        label: null,
        lines: ['<span>No reviews</span>', '<span><span>Cafe</span></span><span> <span aria-hidden="true">·</span> <span>9 Side St</span></span>'],
      },
    ]);
    const [listing] = extractFeed(doc).listings;
    expect(listing?.category).toBe('Cafe');
    expect(listing?.address).toBe('9 Side St');
    expect(listing?.rating).toBeNull();
  });

  it('still reads category and address when the info-line class name changes', () => {
    const renamed = feedPage([{ name: 'Renamed', lo: 992n }]).documentElement.outerHTML.replace(/W4Efsd/g, 'Zq81x');
    const [listing] = extractFeed(parse(renamed)).listings;
    expect(listing?.category).toBe('Restaurant');
    expect(listing?.address).toBe('123 Main St');
  });
});
