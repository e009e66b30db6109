/**
 * HTML of the replica's pages: the search shell (its script renders the list), the place page, the sorry
 * page and the consent page (map-pages-spec §1.2, §1.6, §1.7). Structure and class names follow the
 * captures in ../shared/real-pages/google; texts the extension looks for are verbatim.
 */
import type { MapView } from '../../utils/geo/types';
import { clientRenderer, type SearchPageConfig, searchPageScript } from './client-renderer';
import { type DomClasses, type DomVariant, REAL_CLASSES, REVIEW_CLASSES, reviewClassesFor } from './dom-variants';
import { localisePlace, type ReplicaLang, UI_TEXT, type UiText } from './locale';
import { PANEL_WIDTH_PX } from './mercator';
import { placePageScript } from './place-client';
import { appInitializationState, openStatus, scriptJson } from './place-data';
import { type ReviewsPageInput, reviewsPageConfig } from './reviews-view';
import { DEFAULT_SWITCHES } from './switches';
import type { ReplicaPlace } from './world';

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The page's CSS; the results panel is `panelWidth` px wide (a replica switch: the live width is not known for every user). */
const style = (panelWidth: number) => `
html,body{margin:0;height:100%;overflow:hidden;font-family:Roboto,Arial,sans-serif;font-size:14px;color:#1f1f1f}
#app-container{position:relative;width:100vw;height:100vh}
#scene{position:absolute;inset:0;background:#e8eaed;background-image:linear-gradient(#d7dadf 1px,transparent 1px),linear-gradient(90deg,#d7dadf 1px,transparent 1px);background-size:64px 64px}
.replica-pin{position:absolute;width:12px;height:12px;margin:-12px 0 0 -6px;border-radius:6px 6px 6px 0;transform:rotate(-45deg);background:#ea4335;border:1px solid #a52714}
.bJzME{position:absolute;left:0;top:0;bottom:0;width:${panelWidth}px;background:#fff;box-shadow:0 0 20px rgba(0,0,0,.3);z-index:2}
.k7jAl,.e07Vkf,.aIFcqe{height:100%}
#omnibox{position:absolute;left:8px;top:8px;width:${panelWidth - 16}px;z-index:3}
#searchboxinput{box-sizing:border-box;width:100%;height:48px;border:none;border-radius:24px;padding:0 20px;font-size:15px;box-shadow:0 2px 4px rgba(0,0,0,.2)}
[role=main]{position:absolute;top:64px;left:0;right:0;bottom:0;overflow:hidden}
[role=feed]{height:100%;overflow-y:auto}
[role=article]{position:relative;padding:12px 24px 14px;border-bottom:1px solid #e3e3e3;min-height:96px}
[role=article]>a{position:absolute;inset:0;z-index:1}
.fontHeadlineSmall{font-size:16px;font-weight:500;margin-bottom:4px}
.fontBodyMedium{font-size:14px;color:#5e5e5e;line-height:20px}
.fontTitleLarge{font-size:22px;font-weight:400;margin:8px 24px}
.google-symbols{font-family:'Google Symbols',sans-serif}
[data-value]{position:relative;z-index:2;display:inline-block;margin:8px 8px 0 0;padding:4px 12px;border:1px solid #c7c7c7;border-radius:16px;color:#0b57d0;text-decoration:none;background:#fff;font-size:13px}
[role=img][aria-label*=stars]{color:#1f1f1f}
.replica-spin{width:24px;height:24px;margin:16px auto;border:3px solid #c7c7c7;border-top-color:#1a73e8;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
[role=feed]>div:last-child button{margin:12px 24px;border:none;background:none;font-size:14px}
p.fontBodyMedium{text-align:center;margin:24px}
.replica-notfound,.replica-loading{padding:24px}
h1{font-size:22px;font-weight:400;margin:16px 24px 8px}
[role=article] h1{font-size:12px;font-weight:500;margin:0 0 4px;color:#1f1f1f}
.etWJQ{display:inline-block}
[role=img][aria-label*=stars]>span+span{margin-left:4px}
[data-item-id]{display:block;width:100%;text-align:left;padding:12px 24px;border:none;background:none;color:#1f1f1f;text-decoration:none;font-size:14px}
[role=tab]{border:none;background:none;padding:12px 16px;font-size:14px;cursor:pointer}
[role=tab][aria-selected=true]{color:#0b57d0;border-bottom:2px solid #0b57d0}
.PPCwl{display:flex;gap:24px;padding:16px 24px}
.fontDisplayLarge{font-size:48px;line-height:56px}
.oxIpGd{width:160px;height:8px;border-radius:4px;background:#e8eaed}
.oxIpGd>div{height:100%;border-radius:4px;background:#fbbc04}
.g88MCb,.e2moi{margin:8px 4px 8px 24px;padding:4px 12px;border:1px solid #c7c7c7;border-radius:16px;background:#fff;font-size:14px;cursor:pointer}
.e2moi{margin-left:0}
.e2moi[aria-checked=true],.fxNQSd[aria-checked=true]{background:#e8f0fe}
[role=menu]{position:absolute;z-index:4;background:#fff;box-shadow:0 2px 8px rgba(0,0,0,.3)}
.fxNQSd{padding:8px 16px;cursor:pointer}
.jftiEf{padding:12px 24px;border-bottom:1px solid #e3e3e3}
.WEBjve{float:left;width:32px;height:32px;margin-right:12px;border:none;border-radius:16px;background:#c2e7ff}
.d4r55{color:#1f1f1f;font-weight:500;line-height:32px}
.DU9Pgb{clear:both;padding-top:4px}
.hCCjke::before{content:"★";color:#dadce0}
.elGi1d::before{color:#fbbc04}
.rsqaWe,.DZSIDd{margin-left:8px;font-size:12px}
.wiI7pd{white-space:pre-wrap;overflow-wrap:anywhere;color:#1f1f1f}
.w8nwRe,.review-more-link,.kyuRq{border:none;background:none;color:#0b57d0;cursor:pointer;padding:0 4px;font-size:14px}
.Tya61d{width:64px;height:64px;margin:8px 4px 0 0;border:none;border-radius:8px;background:#dadce0}
.CDe7pd{margin-top:8px;padding-left:12px;border-left:2px solid #e3e3e3}
`;

/** Variant 'b' renames every obfuscated class of the page, its style sheet included. */
function inVariant(variant: DomVariant, html: string): string {
  if (variant === 'a') return html;
  const r = clientRenderer();
  return r.renameClasses(html).replace(/<style>([^<]*)<\/style>/, (_, css: string) => `<style>${r.renameCss(css)}</style>`);
}

/** `/maps/search/…`: the empty shell; its script fetches and renders the results like the real page. */
export function searchShellHtml(config: SearchPageConfig): string {
  const panelWidth = config.panelWidth ?? PANEL_WIDTH_PX;
  const text = UI_TEXT[config.lang ?? 'en'];
  // The inline script holds class names in JSON (not in class="…"), so it is added after renaming.
  const page = inVariant(
    config.variant,
    `<!DOCTYPE html><html lang="${text.htmlLang}" dir="ltr"><head><meta charset="utf-8"><title>${escapeHtml(config.query)} - ${config.lang === 'ko' ? 'Google 지도' : 'Google Maps'}</title><style>${style(panelWidth)}</style></head>
<body class="keynav-mode-off">
<div id="app-container" class="vasquette id-app-container">
<div id="scene" class="widget-scene"><div class="replica-pins"></div></div>
${panel(
  panelWidth,
  `<div id="omnibox"><form id="searchbox" action="/maps/search/" onsubmit="return false"><input id="searchboxinput" name="q" value="${escapeHtml(config.query)}" aria-label="${escapeHtml(text.searchLabel)}" autocomplete="off"></form></div>
<div class="${config.classes.main}" role="main" jslog="25180;mutable:true;"><div class="replica-loading fontBodyMedium">${escapeHtml(text.loading)}</div></div>`,
)}
</div>
<!--script-->
</body></html>`,
  );
  return page.replace('<!--script-->', () => `<script>(function(){${searchPageScript()}\nreplicaSearchPage(${scriptJson(config)}, window);})();</script>`);
}

function panel(panelWidth: number, inner: string): string {
  return `<div class="bJzME tTVLSc"><div class="k7jAl miFGmb lJ3Kh PLbyfe" jsaction="mouseover:pane.wfvdle0; mouseout:pane.wfvdle0" style="width: ${panelWidth}px;"><div class="e07Vkf kA9KIf" tabindex="-1"><div class="aIFcqe" style="width: ${panelWidth}px;">${inner}</div></div></div></div>`;
}

export interface PlacePageInput {
  place: ReplicaPlace;
  /** Width of the results panel in px (default 408). */
  panelWidth?: number;
  view: MapView;
  variant: DomVariant;
  signedIn: boolean;
  /** When the request was not already the canonical URL (`/maps?cid=`), the page rewrites it like the real one. */
  canonicalUrl: string | null;
  /** The page's language, from its `hl` (locale.ts): English when absent. */
  lang?: ReplicaLang;
  /** The Reviews tab's switches and clock; absent: the default switches, reviews written up to now. */
  reviews?: ReviewsPageInput;
}

function defaultReviewsInput(): ReviewsPageInput {
  const now = Date.now();
  return { switches: DEFAULT_SWITCHES, clock: { writtenBefore: now, now } };
}

/**
 * `/maps/place/…` and `/maps?cid=…`: the place panel (§1.6) plus `APP_INITIALIZATION_STATE`. A place
 * with reviews gets the page script (client/place-page.js): signed in, the Overview / Reviews / About
 * tabs and the Reviews panel; signed out (the limited view, S8), no tabs and five reviews in the overview.
 */
export function placePageHtml(input: PlacePageInput): string {
  const lang = input.lang ?? 'en';
  const text = UI_TEXT[lang];
  const place = localisePlace(input.place, lang);
  const panelWidth = input.panelWidth ?? PANEL_WIDTH_PX;
  const c = REAL_CLASSES;
  const name = escapeHtml(place.name);
  const state = appInitializationState(place, input.view, { width: 1024, height: 768 }, lang);
  const rating =
    place.rating === null
      ? ''
      : `<div class="${c.placeRating}" jslog="76333;mutable:true;"><span><span aria-hidden="true">${place.rating.toFixed(1)}</span><span class="${c.placeStars}" role="img" aria-label="${escapeHtml(text.placeStars(place.rating.toFixed(1)))}">${'<span class="rFrJzc"></span>'.repeat(5)}</span></span>` +
        (place.reviewCount === null
          ? ''
          : `<span><span><span role="img" aria-label="${escapeHtml(text.placeReviews(place.reviewCount.toLocaleString('en-US')))}">(${place.reviewCount.toLocaleString('en-US')})</span></span></span>`) +
        `</div>`;
  const price = place.priceLevel
    ? `<span><span class="mgr77e"><span><span class="fjHK4" aria-hidden="true">·</span><span>${escapeHtml(place.priceLevel)}</span></span></span></span>`
    : '';
  const status = openStatus(place, lang);
  const rows: string[] = [
    infoRow(
      c,
      'button',
      `aria-label="${text.address}: ${escapeHtml(place.fullAddress)} " data-item-id="address" data-tooltip="${text.copyAddress}"`,
      '\ue0c8',
      escapeHtml(place.fullAddress),
    ),
  ];
  if (status)
    rows.push(
      `<div class="OqCZI fontBodyMedium WVXvdc"><div class="OMl5r hH0dDd jBYmhd" role="button" aria-expanded="false"><span class="google-symbols" aria-label="${text.hours}" role="img">\ue8b5</span> ${escapeHtml(status)}</div></div>`,
    );
  if (place.website) {
    const domain = place.website.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '');
    rows.push(
      infoRow(
        c,
        'a',
        `aria-label="${text.websiteRow}: ${escapeHtml(domain)} " data-item-id="authority" data-tooltip="${text.openWebsite}" href="${escapeHtml(place.website)}"`,
        '\ue80b',
        escapeHtml(domain),
      ),
    );
  }
  if (place.phone) {
    rows.push(
      infoRow(
        c,
        'button',
        `aria-label="${text.phone}: ${escapeHtml(place.phone.display)} " data-item-id="phone:tel:${escapeHtml(place.phone.digits)}" data-tooltip="${text.copyPhone}"`,
        '\ue0b0',
        escapeHtml(place.phone.display),
      ),
    );
  }
  const rc = reviewClassesFor(input.variant);
  const reviews = reviewsPageConfig(input.place, input.signedIn, input.reviews ?? defaultReviewsInput(), rc);
  const tabList = reviews && input.signedIn ? `<div class="yx21af lLU2pe XDi3Bc"><div class="RWPxGd" role="tablist">${tabs(text, name)}</div></div>` : '';
  const overviewReviews = reviews && !input.signedIn ? `<div class="${REVIEW_CLASSES.overviewReviews}"></div>` : '';
  const rewrite = input.canonicalUrl ? `history.replaceState(null, '', ${scriptJson(input.canonicalUrl)});` : '';
  const page = inVariant(
    input.variant,
    `<!DOCTYPE html><html lang="${text.htmlLang}" dir="ltr"><head><meta charset="utf-8"><title>${name} - ${lang === 'ko' ? 'Google 지도' : 'Google Maps'}</title><style>${style(panelWidth)}</style>
<script>window.APP_INITIALIZATION_STATE=${scriptJson(state)};window.APP_FLAGS=[];${rewrite}</script></head>
<body class="keynav-mode-off">
<div id="app-container" class="vasquette id-app-container">
<div id="scene" class="widget-scene"><div class="replica-pins"><div class="replica-pin" style="left:calc(50% + ${panelWidth / 2}px);top:50%"></div></div></div>
${panel(
  panelWidth,
  `<div id="omnibox"><form id="searchbox" onsubmit="return false"><input id="searchboxinput" name="q" value="${name}" aria-label="${escapeHtml(text.searchLabel)}"></form></div>
<div class="${c.main}" aria-label="${name}" role="main" jslog="24393;mutable:true;" style="display:flex;flex-direction:column">
<div class="TIHn2"><div class="tAiQdd"><div class="lMbq3e"><div><h1 class="${c.placeTitle}"><span class="a5H0ec"></span>${name}<span class="G0bp3e"></span></h1></div>
<div class="LBgpqf"><div class="skqShb"><div class="fontBodyMedium dmRWX">${rating}${price}</div>
<div class="fontBodyMedium"><span><span><button class="${c.placeCategory}" jsaction="pane.rating.category">${escapeHtml(place.categories[0] ?? '')}</button></span></span></div></div></div></div></div></div>
${tabList}
<div class="${REVIEW_CLASSES.overview}" style="flex:1 1 0;min-height:0;overflow-y:auto"><div class="m6QErb XiKgde" aria-label="${text.informationFor(name)}" role="region">${rows.join('')}</div>${overviewReviews}</div>
</div>`,
)}
</div>
<!--script-->
</body></html>`,
  );
  // The config holds the variant's class names in JSON (not in class="…"), so the script is added after renaming.
  const script = reviews ? `<script>(function(){${placePageScript()}\nreplicaPlacePage(${scriptJson(reviews)}, window);})();</script>` : '';
  return page.replace('<!--script-->', () => script);
}

/** Overview / Reviews / About, each labelled for the place (`Reviews for {name}`); the page's script switches them. */
function tabs(text: UiText, name: string): string {
  const [overview, reviews, about] = text.tabs.names;
  const labels = [text.tabs.overview(name), text.tabs.reviews(name), text.tabs.about(name)];
  return [overview, reviews, about]
    .map(
      (t, i) =>
        `<button role="tab" class="hh2c6" aria-selected="${i === 0}" data-tab-index="${i}" aria-label="${labels[i]}"><div class="Gpq6kf NlVald" aria-hidden="true">${t}</div></button>`,
    )
    .join('');
}

function infoRow(c: DomClasses, tag: 'a' | 'button', attrs: string, glyph: string, text: string): string {
  return `<div class="RcCsl fVHpi w4vB1d NOE9ve M0S7ae AG25L"><${tag} class="${c.placeInfoButton}" ${attrs}><div class="AeaXub"><div class="cXHGnc"><span class="google-symbols PHazN" aria-hidden="true">${glyph}</span></div><div class="rogA2c"><div class="${c.placeInfoText}">${text}</div></div></div></${tag}></div>`;
}

export interface SorryInput {
  continueUrl: string;
  token: string;
  ip: string;
  time: Date;
}

/** `/sorry/index` (HTTP 429): the captcha form and the "unusual traffic" text (§1.7). */
export function sorryHtml(input: SorryInput): string {
  const cont = escapeHtml(input.continueUrl);
  const q = escapeHtml(input.token);
  return `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"><meta name="viewport" content="initial-scale=1"><title>${cont}</title></head>
<body style="font-family: arial, sans-serif; background-color: #fff; color: #000; padding:20px; font-size:18px;" onload="e=document.getElementById('captcha');if(e){e.focus();}">
<div style="max-width:400px;">
<hr noshade size="1" style="color:#ccc; background-color:#ccc;"><br>
<form id="captcha-form" action="index" method="post">
<noscript><div style="font-size:13px;">In order to continue, please enable javascript on your web browser.</div></noscript>
<div id="recaptcha" class="g-recaptcha" data-sitekey="6LfwuyUTAAAAAOAmoS0fdqijC2PbbdH4kjq62Y1b" data-callback="submitCallback" data-s="replica-${q}"></div>
<img src="/sorry/image?id=${q}&amp;q=${q}&amp;hl=en&amp;continue=${encodeURIComponent(input.continueUrl)}" alt="" width="1" height="1">
<input type="hidden" name="q" value="${q}"><input type="hidden" name="continue" value="${cont}">
<button type="submit" id="replica-solve" style="margin:12px 0">I'm not a robot</button>
</form>
<hr noshade size="1" style="color:#ccc; background-color:#ccc;">
<div style="font-size:13px;">
<b>About this page</b><br><br>
Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot. <a href="#" onclick="document.getElementById('infoDiv').style.display='block';">Why did this happen?</a><br><br>
<div id="infoDiv" style="display:none; background-color:#eee; padding:10px; margin:0 0 15px 0; line-height:1.4em;">This page appears when Google automatically detects requests coming from your computer network which appear to be in violation of the Terms of Service. The block will expire shortly after those requests stop.</div>
IP address: ${escapeHtml(input.ip)}<br>Time: ${input.time.toISOString()}<br>URL: ${cont}<br>
</div>
</div>
</body></html>`;
}

export interface ConsentInput {
  continueUrl: string;
  hl: string;
  gl: string;
}

/** consent.google.com/m: two forms posting to /save, "Reject all" first (§1.7). */
export function consentHtml(input: ConsentInput): string {
  const form = (setEom: boolean, label: string): string =>
    `<form action="https://consent.google.com/save" method="POST" style="display:inline-block;margin:8px">
<input type="hidden" name="gl" value="${escapeHtml(input.gl)}"><input type="hidden" name="m" value="0"><input type="hidden" name="app" value="0">
<input type="hidden" name="pc" value="m"><input type="hidden" name="continue" value="${escapeHtml(input.continueUrl)}"><input type="hidden" name="x" value="6">
<input type="hidden" name="bl" value="boq_identityfrontenduiserver_20260101.00_p0"><input type="hidden" name="hl" value="${escapeHtml(input.hl)}">
<input type="hidden" name="src" value="1"><input type="hidden" name="cm" value="2"><input type="hidden" name="uxe" value="eomtm">
<input type="hidden" name="set_eom" value="${setEom}">
<div class="lssxud"><div class="VfPpkd-dgl2Hf-ppHlrf-sM5MNb"><button class="VfPpkd-LgbsSe VfPpkd-LgbsSe-OWXEXe-k8QpJ" jsname="${setEom ? 'b3VHJd' : 'tWT92d'}" aria-label="${label}"><span class="VfPpkd-vQzf8d">${label}</span></button></div></div>
</form>`;
  return `<!DOCTYPE html><html lang="${escapeHtml(input.hl)}"><head><meta charset="utf-8"><title>Before you continue to Google Maps</title></head>
<body style="font-family:Roboto,Arial,sans-serif;max-width:640px;margin:40px auto">
<h1>Before you continue to Google</h1>
<p>We use cookies and data to deliver and maintain Google services, track outages and protect against spam, fraud and abuse, and measure audience engagement and site statistics.</p>
<p>If you choose to "Accept all," we will also use cookies and data to develop and improve new services and deliver and measure the effectiveness of ads. If you choose to "Reject all," we will not use cookies for these additional purposes.</p>
${form(false, 'Reject all')}${form(true, 'Accept all')}
</body></html>`;
}

/** The body of a Google 500. */
export function serverErrorHtml(): string {
  return `<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error 500 (Server Error)!!1</title><p><b>500.</b> <ins>That’s an error.</ins><p>There was an error. Please try again later. <ins>That’s all we know.</ins>`;
}

export function notFoundHtml(path: string): string {
  return `<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error 404 (Not Found)!!1</title><p><b>404.</b> <ins>That’s an error.</ins><p>The requested URL <code>${escapeHtml(path)}</code> was not found on this server. <ins>That’s all we know.</ins>`;
}
