// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { idsFromPair } from '../../utils/providers/google/ids';
import { extractPlacePanel } from '../../utils/providers/google/place';

const parse = (html: string): Document => new DOMParser().parseFromString(html, 'text/html');
const IDS = idsFromPair(0x89c259a31b639d95n, 0x90a673b3e3ed8540n);
const PLACE_URL =
  `https://www.google.com/maps/place/Good+Thanks+Cafe/@40.71,-73.99,17z/data=!4m7!3m6!1s${IDS.featureId}` +
  `!8m2!3d40.7197434!4d-73.9895105!16s%2Fg%2F11ghtdlp63!19s${IDS.placeId}?entry=ttu`;

interface PanelSpec {
  label?: string | null;
  name?: string;
  rating?: string;
  extra?: string;
}

/** The §1.6 panel. */
function panelPage({ label = 'Good Thanks Cafe', name = 'Good Thanks Cafe', rating, extra = '' }: PanelSpec = {}): Document {
  const ratingHtml =
    rating ??
    `<div class="F7nice"><span><span aria-hidden="true">4.5</span><span class="ceNzKf" role="img" aria-label="4.5 stars "></span></span>
     <span><span><span role="img" aria-label="1,234 reviews">(1,234)</span></span></span></div>`;
  return parse(`<div role="main"${label === null ? '' : ` aria-label="${label}"`}>
    <div class="lMbq3e"><div><h1 class="DUwDvf lfPIob">${name}</h1></div>
      <div class="LBgpqf"><div class="skqShb"><div class="fontBodyMedium dmRWX">${ratingHtml}</div>
      <div class="fontBodyMedium"><span><span><button class="DkEaL" jsaction="pane.rating.category">Cafe</button></span></span></div></div></div>
    </div>
    <button data-item-id="address" aria-label="Address: 15 Allen St, New York, NY 10002"><div class="Io6YTe">15 Allen St, New York, NY 10002</div></button>
    <a data-item-id="authority" href="/url?q=https://goodthanks.example/&amp;sa=U" aria-label="Website: goodthanks.example"><div class="Io6YTe">goodthanks.example</div></a>
    <button data-item-id="phone:tel:+13055550100" aria-label="Phone: (305) 555-0100"><div class="Io6YTe">(305) 555-0100</div></button>
    ${extra}
  </div>`);
}

describe('extractPlacePanel', () => {
  it('reads every §1.6 field, ids and pin from the URL', () => {
    expect(extractPlacePanel(panelPage(), PLACE_URL)).toEqual({
      key: `google:${IDS.cid}`,
      provider: 'google',
      providerId: IDS.cid,
      featureId: IDS.featureId,
      placeId: IDS.placeId,
      cid: IDS.cid,
      url: `https://www.google.com/maps?cid=${IDS.cid}`,
      name: 'Good Thanks Cafe',
      category: 'Cafe',
      address: '15 Allen St, New York, NY 10002',
      phone: '(305) 555-0100',
      website: 'https://goodthanks.example/',
      rating: 4.5,
      reviews: 1234,
      lat: 40.7197434,
      lng: -73.9895105,
      sponsored: false,
      sources: { category: 'panel', address: 'panel', phone: 'panel', website: 'panel', rating: 'panel', reviews: 'panel' },
    });
  });

  it('returns null while the panel is still swapping (aria-label and heading disagree)', () => {
    expect(extractPlacePanel(panelPage({ label: 'Previous Place' }), PLACE_URL)).toBeNull();
  });

  it('takes ids from a ?cid= URL (no pin then)', () => {
    const place = extractPlacePanel(panelPage(), `https://www.google.com/maps?cid=${IDS.cid}`)!;
    expect([place.key, place.featureId, place.lat, place.lng]).toEqual([`google:${IDS.cid}`, null, null, null]);
  });

  it('returns null when nothing identifies the place', () => {
    expect(extractPlacePanel(panelPage(), 'https://www.google.com/maps/search/cafe')).toBeNull();
  });

  it('ignores a page state that names another place (stale after in-page navigation)', () => {
    const inner = JSON.stringify([[IDS.featureId, 'Some Other Place', null, [null, null, 1, 2]]]);
    const script = `<script>window.APP_INITIALIZATION_STATE=[null,null,null,[null,null,null,null,null,${JSON.stringify(`)]}'\n${inner}`)}]];</script>`;
    const stale = panelPage({ extra: script });
    expect(extractPlacePanel(stale, 'https://www.google.com/maps/search/cafe')).toBeNull();
    const fresh = panelPage({ extra: script.replace('Some Other Place', 'Good Thanks Cafe') });
    expect(extractPlacePanel(fresh, 'https://www.google.com/maps/search/cafe')).toMatchObject({
      key: `google:${IDS.cid}`,
      lat: 1,
      lng: 2,
    });
  });

  it('does not guess ids when panel links mention two different places', () => {
    const other = idsFromPair(1n, 2n).featureId;
    const links = `<a href="https://www.google.com/maps/reserve?sourceurl=x!1s${IDS.featureId}!3m1"></a>
      <a href="https://www.google.com/maps/preview/place?pb=!1m2!1s${other}"></a>`;
    expect(extractPlacePanel(panelPage({ extra: links }), 'https://www.google.com/maps/search/cafe')).toBeNull();
  });

  it('limited view: a bare star label and no count', () => {
    const rating = `<div class="F7nice"><span><span aria-hidden="true">4.9</span><span role="img" aria-label="4.9 stars"></span></span></div>`;
    expect(extractPlacePanel(panelPage({ rating }), PLACE_URL)).toMatchObject({ rating: 4.9, reviews: null });
  });

  it('without F7nice, finds the stars beside the heading and is not fooled by digits in the name', () => {
    const name = 'Cafe 3 Brothers';
    const rating = `<span role="img" aria-label="4.2 stars"></span><span>(310)</span>`;
    const place = extractPlacePanel(panelPage({ label: name, name, rating }), PLACE_URL)!;
    expect([place.name, place.rating, place.reviews]).toEqual([name, 4.2, 310]);
  });

  it('a place without reviews has no rating, even with rated places further down the panel', () => {
    const rating = '<div></div>';
    const below = `<div><h2>People also search for</h2><span role="img" aria-label="4.6 stars 857 Reviews"></span></div>`;
    const place = extractPlacePanel(panelPage({ rating, extra: below }), PLACE_URL)!;
    expect([place.rating, place.reviews]).toEqual([null, null]);
  });

  it('falls back to the aria-label for the address and the item id for the phone', () => {
    const doc = panelPage();
    doc.querySelector('[data-item-id="address"]')!.innerHTML = '';
    const phone = doc.querySelector('[data-item-id^="phone"]')!;
    phone.innerHTML = '\uE0B0';
    phone.removeAttribute('aria-label');
    const place = extractPlacePanel(doc, PLACE_URL)!;
    expect([place.address, place.phone]).toEqual(['15 Allen St, New York, NY 10002', '+13055550100']);
  });

  it('accepts a main without aria-label on a /maps/place/ URL', () => {
    expect(extractPlacePanel(panelPage({ label: null }), PLACE_URL)?.name).toBe('Good Thanks Cafe');
  });
});
