// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { detectPageKind } from '../../utils/providers/google/page-kind';
import { extractPlacePanel } from '../../utils/providers/google/place';

const parse = (html: string): Document => new DOMParser().parseFromString(html, 'text/html');
const SEARCH = 'https://www.google.com/maps/search/pizza/@52.37,4.89,15z?hl=en';

const panel = (name: string, inner = '') => `<div role="main" aria-label="${name}"><h1 class="DUwDvf lfPIob">${name}</h1>${inner}</div>`;

describe('detectPageKind', () => {
  it.each([
    ['results', SEARCH, '<div role="main"><div role="feed" aria-label="Results for pizza"></div></div>'],
    ['place', SEARCH, panel('Luigi')],
    ['place', 'https://www.google.com/maps/place/Luigi/@1,2,17z', '<div role="main"><h1>Luigi</h1></div>'],
    [
      'no-results',
      SEARCH,
      `<div role="main"><div class="Q2vNVc">Google Maps can't find <b>zzqx pizza</b></div>
       <div>Make sure your search is spelled correctly. Try adding a city, state, or zip code.</div></div>`,
    ],
    ['no-results', SEARCH, '<div role="main"><div>Google Maps can’t find zzqx</div></div>'],
    ['captcha', 'https://www.google.com/sorry/index?continue=https://www.google.com/maps&q=EgR', '<p>x</p>'],
    ['captcha', SEARCH, '<form id="captcha-form" action="index" method="post"><div class="g-recaptcha" data-sitekey="k"></div></form>'],
    ['captcha', SEARCH, '<div class="g-recaptcha" data-sitekey="k"></div>'],
    ['captcha', SEARCH, "<div>Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you</div>"],
    ['consent', 'https://consent.google.com/m?continue=https://www.google.com/maps&gl=NL&m=0&pc=m&hl=en&src=1', '<p></p>'],
    [
      'consent',
      SEARCH,
      `<form action="https://consent.google.com/save" method="POST"><input type="hidden" name="set_eom" value="false"><button>Reject all</button></form>
       <form action="https://consent.google.com/save" method="POST"><input type="hidden" name="set_eom" value="true"><button>Accept all</button></form>`,
    ],
    ['unknown', SEARCH, '<div>Loading…</div>'],
    ['unknown', SEARCH, '<div role="main" aria-label="x"></div>'],
  ])('%s: %s', (kind, url, html) => {
    expect(detectPageKind(parse(html), url)).toBe(kind);
  });

  it('a captcha outranks whatever else the page shows', () => {
    const html = `<div role="feed"></div><form id="captcha-form"></form>`;
    expect(detectPageKind(parse(html), SEARCH)).toBe('captcha');
  });

  it('does not read UI strings quoted inside scripts', () => {
    const html = `<script>var m = ["Google Maps can't find", "unusual traffic from your computer network"];</script><div>x</div>`;
    expect(detectPageKind(parse(html), SEARCH)).toBe('unknown');
  });

  it('does not call a sponsored heading in the feed a place panel', () => {
    const html = `<div role="main"><div role="feed"><div role="article"><h1 aria-label="Sponsored">Sponsored</h1></div></div></div>`;
    expect(detectPageKind(parse(html), SEARCH)).toBe('results');
    expect(extractPlacePanel(parse(html), SEARCH)).toBeNull();
  });
});
