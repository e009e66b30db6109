/*
 * The replica search page's script (plain JS: it is inlined into the page as is).
 *
 * Like the real page it reads the window size, asks `/search?tbm=map…&tch=1` for 20 results at a time,
 * unwraps the `{"c":0,"d":")]}'\n[…]"}/*""*\/` framing, and renders cards from the P arrays
 * (map-pages-spec §1.2, §1.5). Scrolling the feed to the bottom shows the spinner row for a while, then
 * the next batch; after 120 (or fewer) the end-of-list text.
 *
 * Only function declarations at the top level: server.ts wraps this file in an IIFE for the page, and
 * client-renderer.ts evaluates it in Node to render the same cards for unit tests.
 */

var MAPS_ORIGIN = 'https://www.google.com';
var BATCH_SIZE = 20;
var LIST_CAP = 120;
var EARTH_RADIUS_M = 6378137;
var VIEW_DISTANCE_PER_HEIGHT = 1.1654;
/* Private-use icon glyphs (Google Symbols), which real cards carry in their text (spec §1.2, S7). */
var GLYPH_WHEELCHAIR = '\ue934';
var GLYPH_WEBSITE = '\ue80b';
var GLYPH_DIRECTIONS = '\ue52e';
var GLYPH_CLOCK = '\ue8b5';

/*
 * The page's texts in its language (`hl`, locale.ts replicaLang): English and Korean. The same
 * strings as locale.ts UI_TEXT, which renders the server-side pages.
 */
var TEXT = {
  en: {
    stars: (r, c) => (c === null ? `${r} stars` : `${r} stars ${c} Reviews`),
    noReviews: 'No reviews',
    sponsored: 'Sponsored',
    endOfList: "You've reached the end of the list.",
    notFound: (q) => `Google Maps can't find ${q}`,
    notFoundHint: 'Make sure your search is spelled correctly. Try adding a city, state, or zip code.',
    resultsFor: (q) => `Results for ${q}`,
    results: 'Results',
    updateWhenMapMoves: 'Update results when map moves',
    website: 'Website',
    visitWebsite: (n) => `Visit ${n}'s website`,
    directions: 'Directions',
    directionsTo: (n) => `Get directions to ${n}`,
    wheelchair: 'Wheelchair accessible entrance',
    closedWord: 'Closed',
    gl: 'us',
  },
  ko: {
    stars: (r, c) => (c === null ? `별표 ${r}개` : `별표 ${r}개 리뷰 ${c}개`),
    noReviews: '리뷰 없음',
    sponsored: '광고',
    endOfList: '목록의 끝에 도달했습니다.',
    notFound: (q) => `Google 지도에서 '${q}'을(를) 찾을 수 없습니다.`,
    notFoundHint: '검색어의 철자가 올바른지 확인하세요. 시/도 또는 우편번호를 추가해 보세요.',
    resultsFor: (q) => `${q}에 대한 검색결과`,
    results: '검색결과',
    updateWhenMapMoves: '지도를 움직이면 결과 업데이트',
    website: '웹사이트',
    visitWebsite: (n) => `${n} 웹사이트 방문하기`,
    directions: '경로',
    directionsTo: (n) => `${n}까지의 경로 찾기`,
    wheelchair: '휠체어 이용 가능 입구',
    closedWord: '영업 종료',
    gl: 'kr',
  },
};

function langOf(lang) {
  return lang === 'ko' ? 'ko' : 'en';
}

function textOf(lang) {
  return TEXT[langOf(lang)];
}

/*
 * DOM variant 'b': every obfuscated class renamed, as Google does every few months. Only the stable
 * hooks survive: roles, aria-labels, data-* attributes, hrefs, texts, and the classes kept here
 * (`UsdlK` counts as a stable hook in the brief; `font*` and `google-symbols` are shared style classes).
 */
var KEPT_CLASS = /^(font[A-Z]\w*|google-symbols|replica-[\w-]+|UsdlK|vasquette|id-app-container|keynav-mode-off|widget-scene)$/;
var CLASS_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function renamedClass(token) {
  if (KEPT_CLASS.test(token)) return token;
  var h = 2166136261;
  for (var i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619) >>> 0;
  var out = CLASS_ALPHABET.charAt(26 + (h % 26));
  for (var j = 0; j < 5; j++) {
    h = Math.imul(h ^ (h >>> 15) ^ j, 2654435761) >>> 0;
    out += CLASS_ALPHABET.charAt(h % 62);
  }
  return out;
}

function renameClasses(html) {
  return html.replace(/class="([^"]*)"/g, (_whole, list) => `class="${list.split(/\s+/).filter(Boolean).map(renamedClass).join(' ')}"`);
}

// biome-ignore lint/correctness/noUnusedVariables: called by the page that embeds this script (tests/replica/pages.ts).
function renameCss(css) {
  return css.replace(/\.([A-Za-z][\w-]*)/g, (_whole, name) => `.${renamedClass(name)}`);
}

function escapeHtml(value) {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function at(value, path) {
  var v = value;
  for (var i = 0; i < path.length; i++) {
    if (!Array.isArray(v)) return null;
    v = v[path[i]];
  }
  return v === undefined ? null : v;
}

function coord(v) {
  return String(Number(Number(v).toFixed(7)));
}

function nameSegment(name) {
  return encodeURIComponent(name).replace(/%20/g, '+');
}

/* §1.4: `!4m7!3m6` groups; the sponsored copy carries one more token (`!10e5`), hence 8 and 7. */
function cardHref(P, sponsored, lang) {
  var counts = sponsored ? ['8', '7'] : ['7', '6'];
  return (
    MAPS_ORIGIN +
    '/maps/place/' +
    nameSegment(P[11]) +
    '/data=!4m' +
    counts[0] +
    '!3m' +
    counts[1] +
    '!1s' +
    P[10] +
    '!8m2!3d' +
    coord(at(P, [9, 2])) +
    '!4d' +
    coord(at(P, [9, 3])) +
    (sponsored ? '!10e5' : '') +
    '!16s' +
    encodeURIComponent(P[89]) +
    '!19s' +
    P[78] +
    '?authuser=0&hl=' +
    langOf(lang) +
    '&rclk=1'
  );
}

/* `P[7][0]` may be Google's `/url?q=` redirect; the card's button links the site itself. */
function websiteOf(P) {
  var raw = at(P, [7, 0]);
  if (typeof raw !== 'string') return null;
  if (raw.indexOf('/url?') === 0) {
    var m = /[?&]q=([^&]+)/.exec(raw);
    return m ? decodeURIComponent(m[1]) : null;
  }
  return raw;
}

/*
 * Real cards do not always print the phone the data carries (issue 16: about one in ten in a
 * Seoul sweep). The replica leaves it off one card in five, chosen by a hash of the feature id
 * so every run and every test agrees on which; the place page and `P[178]` still have it.
 */
function cardShowsPhone(P) {
  var id = String(P[10]);
  var h = 2166136261;
  for (var i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return h % 5 !== 0;
}

function adLink(P, site) {
  return (
    '/aclk?sa=L&ai=DChsSEwjReplica' +
    String(P[78]).slice(4, 14) +
    '&co=1&ase=2&gclid=EAIaIQobChMIreplica' +
    String(P[10]).slice(-8) +
    '&sig=AOD64_replica&adurl=' +
    encodeURIComponent(site) +
    '&rct=j&nis=6'
  );
}

function formatCount(n) {
  return Number(n).toLocaleString('en-US');
}

function separatorDot() {
  return ' <span aria-hidden="true">·</span> ';
}

function ratingHtml(P, cls, lang) {
  var text = textOf(lang);
  var rating = at(P, [4, 7]);
  if (typeof rating !== 'number') {
    return `<span class="${cls.ratingWrap}">${escapeHtml(text.noReviews)}</span>`;
  }
  var count = at(P, [4, 8]);
  var shown = rating.toFixed(1);
  // Signed in: "4.5 stars 1,234 Reviews" with the (1,234) span. Signed out (limited view): "4.5 stars".
  var label = text.stars(shown, typeof count === 'number' ? formatCount(count) : null);
  return (
    '<span class="' +
    cls.ratingWrap +
    '"><span role="img" class="' +
    cls.stars +
    '" aria-label="' +
    escapeHtml(label) +
    '">' +
    '<span class="' +
    cls.ratingValue +
    '" aria-hidden="true">' +
    shown +
    '</span>' +
    (typeof count === 'number' ? `<span class="${cls.reviewCount}" aria-hidden="true">(${formatCount(count)})</span>` : '') +
    '</span></span>'
  );
}

/*
 * One result card. ctx: { classes, position, sponsored, broken }.
 * `broken` keeps role=article but drops the hooks an extractor relies on (a page change that breaks it).
 */
function renderCard(P, ctx) {
  var cls = ctx.classes;
  var text = textOf(ctx.lang);
  var name = String(P[11]);
  var jsa = `pane.wfvdle${10 + ctx.position}`;
  var street = at(P, [2, 0]);
  var category = at(P, [13, 0]);
  var price = at(P, [4, 2]);
  var phone = cardShowsPhone(P) ? at(P, [178, 0, 0]) : null;
  var status = at(P, [34, 4, 4]);
  var site = websiteOf(P);
  var href = cardHref(P, !!ctx.sponsored, ctx.lang);
  var labelAttr = ctx.broken ? '' : ` aria-label="${escapeHtml(name)}"`;
  var html = `<div><div role="article" class="${cls.card}"${labelAttr} jsaction="mouseover:${jsa};mouseout:${jsa}">`;
  html += ctx.broken
    ? `<a class="${cls.cardLink}" jsaction="${jsa}"></a>`
    : `<a class="${cls.cardLink}"${labelAttr} href="${escapeHtml(href)}" jsaction="${jsa};focus:${jsa};blur:${jsa};auxclick:${jsa};keydown:${jsa};clickmod:${jsa}"></a>`;
  html += `<div class="rWbY0d"></div><div class="${cls.cardBody}">`;
  if (ctx.sponsored) {
    html += `<div class="${cls.sponsoredWrap}"><div class="OcdnDb"><h1 class="kpih0e f8ia3c uvopNe" aria-label="${escapeHtml(text.sponsored)}"><span class="${cls.sponsored}">${escapeHtml(text.sponsored)}</span></h1></div></div>`;
  }
  html += `<div class="lI9IFe"><div class="y7PRA"><div class="Lui3Od T7Wufd"><div class="Z8fK3b"><div class="${cls.cardText}">`;
  html += `<div class="${cls.nameWrap}"><div class="${cls.name}">${escapeHtml(name)}</div></div>`;
  html += `<div class="${cls.info}"><div class="${cls.ratingLine}">${ratingHtml(P, cls, ctx.lang)}`;
  if (typeof price === 'string') html += `<span>${separatorDot()}<span>${escapeHtml(price)}</span></span>`;
  html += '</div></div>';
  html += `<div class="${cls.info}"><div class="${cls.info}">`;
  html += `<span><span>${escapeHtml(category || '')}</span></span>`;
  if (ctx.position % 3 === 0) {
    html += `<span>${separatorDot()}<span class="google-symbols" aria-label="${escapeHtml(text.wheelchair)}" role="img">${GLYPH_WHEELCHAIR}</span></span>`;
  }
  if (typeof street === 'string') html += `<span>${separatorDot()}<span>${escapeHtml(street)}</span></span>`;
  html += '</div>';
  if (typeof status === 'string' || typeof phone === 'string') {
    html += `<div class="${cls.info}">`;
    if (typeof status === 'string') {
      var parts = status.split(' ⋅ ');
      var colour = parts[0] === text.closedWord ? 'rgba(220,54,46,1.00)' : 'rgba(25,134,57,1.00)';
      html +=
        '<span><span><span style="font-weight: 400; color: ' +
        colour +
        ';">' +
        GLYPH_CLOCK +
        ' ' +
        escapeHtml(parts[0]) +
        '</span>' +
        (parts.length > 1 ? `<span style="font-weight: 400;"> ⋅ ${escapeHtml(parts.slice(1).join(' ⋅ '))}</span>` : '') +
        '</span></span>';
    }
    if (typeof phone === 'string') {
      html += `<span>${typeof status === 'string' ? separatorDot() : ''}<span class="${cls.phone}">${escapeHtml(phone)}</span></span>`;
    }
    html += '</div>';
  }
  html += '</div></div></div></div></div></div>';
  html += `<div class="${cls.actions}">`;
  if (site) {
    var siteHref = ctx.sponsored ? adLink(P, site) : site;
    html += `<div class="etWJQ jym1ob kdfrQc"><a class="${cls.actionButton}" data-value="${escapeHtml(text.website)}" aria-label="${escapeHtml(text.visitWebsite(name))}" href="${escapeHtml(siteHref)}" target="_blank"><span class="google-symbols" aria-hidden="true">${GLYPH_WEBSITE}</span><span>${escapeHtml(text.website)}</span></a></div>`;
  }
  html += `<div class="etWJQ jym1ob kdfrQc"><button class="${cls.actionButton}" data-value="${escapeHtml(text.directions)}" aria-label="${escapeHtml(text.directionsTo(name))}"><span class="google-symbols" aria-hidden="true">${GLYPH_DIRECTIONS}</span><span>${escapeHtml(text.directions)}</span></button></div>`;
  html += `</div></div></div></div><div class="${cls.separator}"></div>`;
  return html;
}

function renderSpinner(cls) {
  return `<div><div class="${cls.spinner}"><div class="OBAKjf veYFef"><div class="replica-spin"></div></div></div></div>`;
}

function renderEnd(cls, lang) {
  return `<div class="${cls.endWrap}"><div class="${cls.endBox}"><p class="fontBodyMedium"><span><span class="${cls.endText}">${escapeHtml(textOf(lang).endOfList)}</span></span></p></div></div>`;
}

function renderFeedShell(query, cls, lang) {
  var text = textOf(lang);
  return (
    '<div class="' +
    cls.feed +
    '" aria-label="' +
    escapeHtml(text.resultsFor(query)) +
    '" role="feed" tabindex="-1">' +
    '<div class="m6QErb XiKgde"><div class="L1xEbb"><h1 class="fontTitleLarge IFMGgb">' +
    escapeHtml(text.results) +
    '</h1></div></div>' +
    '<div class="replica-tail"></div>' +
    '<div class="' +
    cls.updateToggle +
    '"><button role="checkbox" class="D6NGZc" aria-checked="false"><span class="google-symbols" aria-hidden="true">\ue835</span>' +
    escapeHtml(text.updateWhenMapMoves) +
    '</button></div>' +
    '</div>'
  );
}

function renderNotFound(query, cls, lang) {
  var text = textOf(lang);
  return (
    '<div class="replica-notfound"><div class="' +
    cls.notFound +
    '">' +
    escapeHtml(text.notFound(query)) +
    '</div>' +
    '<div class="fontBodyMedium">' +
    escapeHtml(text.notFoundHint) +
    '</div></div>'
  );
}

/* Web Mercator pixel position at a zoom (for the pins and the request's view distance). */
function projectPoint(lat, lng, zoom) {
  var size = 256 * 2 ** zoom;
  var s = Math.sin((Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180);
  return { x: ((lng + 180) / 360) * size, y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * size };
}

function viewDistance(view, height) {
  var mpp = (Math.cos((view.lat * Math.PI) / 180) * 2 * Math.PI * EARTH_RADIUS_M) / (256 * 2 ** view.zoom);
  return mpp * height * VIEW_DISTANCE_PER_HEIGHT;
}

/* The in-page request (§1.5): 20 per batch, `!8i` offset, `ech` page number, `tch=1` framing. */
function searchRequestUrl(query, view, width, height, page, lang) {
  var pb =
    '!4m12!1m3!1d' +
    viewDistance(view, height) +
    '!2d' +
    view.lng +
    '!3d' +
    view.lat +
    '!2m3!1f0!2f0!3f0!3m2!1i' +
    width +
    '!2i' +
    height +
    '!4f' +
    view.zoom +
    '!7i' +
    BATCH_SIZE +
    '!8i' +
    (page - 1) * BATCH_SIZE +
    '!10b1!12m25!1m5!18b1!30b1!31m1!1b1!34e1!2m4!5m1!6e2!20e3!39b1!10b1!12b1!13b1!16b1!17m1!3e1!20m3!5e2!6b1!14b1!46m1!1b0!96b1!99b1!19m4!2m3!1i360!2i120!4i8';
  return `/search?tbm=map&authuser=0&hl=${langOf(lang)}&gl=${textOf(lang).gl}&tch=1&ech=${page}&q=${encodeURIComponent(query)}&pb=${pb}`;
}

function parseFramed(text) {
  var body = text;
  if (body.slice(-6) === '/*""*/') body = body.slice(0, -6);
  if (body.charAt(0) === '{') body = JSON.parse(body).d;
  if (body.indexOf(")]}'") !== 0) throw new Error('not a maps answer');
  return JSON.parse(body.slice(body.indexOf('\n') + 1));
}

function placesOf(data) {
  var list = at(data, [0, 1]);
  if (!Array.isArray(list)) return [];
  var out = [];
  for (var i = 1; i < list.length; i++) {
    var P = at(list[i], [14]);
    if (Array.isArray(P)) out.push(P);
  }
  return out;
}

function viewOf(data, fallback) {
  var v = at(data, [1]);
  var lng = at(v, [0, 1]);
  var lat = at(v, [0, 2]);
  var zoom = at(v, [3]);
  if (typeof lat !== 'number' || typeof lng !== 'number' || typeof zoom !== 'number') return fallback;
  return { lat: lat, lng: lng, zoom: zoom };
}

// biome-ignore lint/correctness/noUnusedVariables: called by the page that embeds this script (tests/replica/pages.ts).
function replicaSearchPage(config, win) {
  var doc = win.document;
  var cls = config.classes;
  var out = (html) => (config.variant === 'b' ? renameClasses(html) : html);
  var main = doc.querySelector('[role="main"]');
  var pins = doc.querySelector('.replica-pins');
  var width = win.innerWidth;
  var height = win.innerHeight;
  var feed = null;
  var tail = null;
  var page = 0;
  var shown = 0;
  var loading = false;
  var done = false;

  function request(pageNo, onData) {
    var xhr = new win.XMLHttpRequest();
    xhr.open('GET', searchRequestUrl(config.query, config.view, width, height, pageNo, config.lang));
    xhr.onload = () => {
      if (String(xhr.responseURL).indexOf('/sorry/') >= 0) {
        // Blocked mid-list: the tab ends up on the sorry page, as a navigation would.
        win.location.href = xhr.responseURL;
        return;
      }
      var data = null;
      try {
        if (xhr.status === 200) data = parseFramed(xhr.responseText);
      } catch {
        data = null;
      }
      if (data === null) {
        done = true;
        if (tail) tail.innerHTML = '';
        return;
      }
      onData(data);
    };
    xhr.onerror = () => {
      done = true;
    };
    xhr.send();
  }

  function addPins(places, view) {
    if (!pins) return;
    var c = projectPoint(view.lat, view.lng, view.zoom);
    var html = '';
    for (var i = 0; i < places.length; i++) {
      var p = projectPoint(at(places[i], [9, 2]), at(places[i], [9, 3]), view.zoom);
      var x = width / 2 + (p.x - c.x);
      var y = height / 2 + (p.y - c.y);
      html += `<div class="replica-pin" style="left:${x.toFixed(1)}px;top:${y.toFixed(1)}px"></div>`;
    }
    pins.insertAdjacentHTML('beforeend', html);
  }

  /* The real site writes the view it ends on back into the URL (Apify reads the zoom from there). */
  function updateUrl(view) {
    var path = win.location.pathname;
    var hasView = /\/@[^/]*z/.test(path);
    var same = view.lat === config.view.lat && view.lng === config.view.lng && view.zoom === config.view.zoom;
    if (hasView && same) return;
    var segment = `@${coord(view.lat)},${coord(view.lng)},${view.zoom}z`;
    var next = hasView ? path.replace(/@[^/]*z/, segment) : path.replace(/\/?$/, `/${segment}`);
    win.history.replaceState(win.history.state, '', next + win.location.search + win.location.hash);
  }

  function appendCards(places, sponsoredP) {
    var html = '';
    if (sponsoredP) html += renderCard(sponsoredP, { classes: cls, position: 0, sponsored: true, broken: config.brokenCards, lang: config.lang });
    for (var i = 0; i < places.length; i++) {
      html += renderCard(places[i], { classes: cls, position: shown + i + 1, sponsored: false, broken: config.brokenCards, lang: config.lang });
    }
    tail.insertAdjacentHTML('beforebegin', out(html));
    shown += places.length;
  }

  function finish() {
    done = true;
    tail.innerHTML = out(renderEnd(cls, config.lang));
  }

  function onBatch(data, finalView) {
    var places = placesOf(data);
    appendCards(places, null);
    addPins(places, finalView);
    if (places.length < BATCH_SIZE || shown >= LIST_CAP) finish();
  }

  function loadMore() {
    if (loading || done) return;
    loading = true;
    tail.innerHTML = out(renderSpinner(cls));
    win.setTimeout(() => {
      page += 1;
      request(page, (data) => {
        tail.innerHTML = '';
        onBatch(data, viewOf(data, config.view));
        loading = false;
      });
    }, config.batchDelayMs);
  }

  function onScroll() {
    if (feed.scrollTop + feed.clientHeight >= feed.scrollHeight - 8) loadMore();
  }

  page = 1;
  request(1, (data) => {
    var places = placesOf(data);
    var finalView = viewOf(data, config.view);
    updateUrl(finalView);
    if (places.length === 0) {
      main.innerHTML = out(renderNotFound(config.query, cls, config.lang));
      return;
    }
    if (places.length === 1) {
      // A single match is not listed: the page goes to the place itself, after a while (spec §1.1).
      var target = at(places[0], [27]) || cardHref(places[0], false, config.lang);
      win.setTimeout(() => {
        win.location.replace(target);
      }, config.singleResultRedirectMs);
      return;
    }
    main.innerHTML = out(renderFeedShell(config.query, cls, config.lang));
    feed = main.querySelector('[role="feed"]');
    tail = feed.querySelector('.replica-tail');
    var ads = at(data, [2, 1, 0]);
    var sponsoredP = Array.isArray(ads) && ads.length ? at(ads[0], [15]) : null;
    appendCards([], Array.isArray(sponsoredP) ? sponsoredP : null);
    onBatch(data, finalView);
    feed.addEventListener('scroll', onScroll, { passive: true });
    var toggle = feed.querySelector('button[role="checkbox"]');
    toggle.addEventListener('click', () => {
      toggle.setAttribute('aria-checked', toggle.getAttribute('aria-checked') === 'true' ? 'false' : 'true');
    });
  });
}
