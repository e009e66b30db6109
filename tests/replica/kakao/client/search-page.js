// The Kakao replica's search page script (plain JS, inlined by pages.ts; run by Chromium and by
// happy-dom in unit tests). It fetches its search the way the page does (the 2026 endpoint behind
// a gate token by XHR or fetch, by default; or map.daum by JSONP, XHR or fetch) and builds the
// list, "장소 더보기", the pager and "no results" from the answer. Under `forged` it also plays a
// hostile script posting the extension's hook message after each answer.
// eslint-disable-next-line no-unused-vars
// biome-ignore lint/correctness/noUnusedVariables: called by the page that embeds this script (tests/replica/kakao/pages.ts).
function replicaKakaoSearchPage(config, win) {
  var doc = win.document;
  var PAGE = 15;
  var $ = (id) => doc.getElementById(id);
  var state = {
    query: config.query,
    page: 1,
    moreOpened: false,
    total: 0,
    reachable: 0,
    records: [],
    seq: 0,
    bounded: !!(config.boundsControl && config.boundsSearch),
  };
  var MAPSEARCH = config.endpoint === 'mapsearch-2026';

  function el(tag, attrs, children) {
    var e = doc.createElement(tag);
    for (var k in attrs) if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    (children || []).forEach((c) => {
      e.appendChild(typeof c === 'string' ? doc.createTextNode(c) : c);
    });
    return e;
  }
  function setHidden(node, hidden) {
    if (!node) return;
    node.classList.toggle('HIDDEN', hidden);
  }
  function boundsChecked() {
    return !!(config.boundsControl && state.bounded);
  }
  function mapRect() {
    var v = config.view;
    var w = Math.max(100, (win.innerWidth || 1024) - config.panelWidth);
    var h = Math.max(100, win.innerHeight || 768);
    var hw = (w / 2) * config.wcongPerPx;
    var hh = (h / 2) * config.wcongPerPx;
    return [Math.floor(v.x - hw), Math.floor(v.y - hh), Math.ceil(v.x + hw), Math.ceil(v.y + hh)].join(',');
  }
  // The map's box in degrees, lng,lat,lng,lat (the public REST API's order): its south-west and north-east corners.
  function degreesRect() {
    var r = mapRect().split(',').map(Number);
    var d = config.degrees;
    var at = (x, y) => [
      d.lng + (x - config.view.x) * d.lngPerX + (y - config.view.y) * d.lngPerY,
      d.lat + (x - config.view.x) * d.latPerX + (y - config.view.y) * d.latPerY,
    ];
    var sw = at(r[0], r[1]);
    var ne = at(r[2], r[3]);
    return [sw[0], sw[1], ne[0], ne[1]].map((v) => v.toFixed(7)).join(',');
  }
  function requestUrl(page, callback) {
    var p = new win.URLSearchParams();
    p.set('q', state.query);
    p.set('msFlag', boundsChecked() && config.rectParam !== 'renamed-unflagged' ? 'S' : 'A');
    p.set('sort', '0');
    p.set('page', String(page));
    if (boundsChecked()) {
      if (config.rectParam === 'rect') p.set('rect', mapRect());
      else if (config.rectParam === 'wgs84') p.set('rect', degreesRect());
      else if (config.rectParam !== 'absent') p.set('bbox', mapRect());
      if (config.rectParam !== 'renamed-unflagged') p.set('mcheck', 'Y');
    }
    if (callback) p.set('callback', callback);
    return MAPSEARCH ? `${config.mapOrigin}/api/v1/mapsearch/map?${p.toString()}` : `${config.searchOrigin}/mapsearch/map.daum?${p.toString()}`;
  }
  // The 2026 endpoint answers only a request the page prepared: a token minted for its exact URL.
  function gate(url, then) {
    var body = JSON.stringify({ method: 'GET', url: url.slice(config.mapOrigin.length), body: '' });
    var read = (text) => {
      try {
        then(JSON.parse(text).token || null);
      } catch {
        then(null);
      }
    };
    if (config.transport === 'fetch') {
      return win
        .fetch(config.mapOrigin + config.gatePath, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body, credentials: 'include' })
        .then((r) => r.text())
        .then(read, () => {
          then(null);
        });
    }
    var x = new win.XMLHttpRequest();
    x.open('POST', config.mapOrigin + config.gatePath);
    x.setRequestHeader('content-type', 'application/json');
    x.onload = () => {
      read(x.responseText);
    };
    x.onerror = () => {
      then(null);
    };
    x.send(body);
  }
  function headersFor(token) {
    var h = { 'X-Requested-With': 'XMLHttpRequest' };
    if (token) h[config.gateHeader] = token;
    return h;
  }
  function get(url, token, done) {
    var h = headersFor(token);
    if (config.transport === 'fetch') {
      return win
        .fetch(url, { headers: h, credentials: 'include' })
        .then((r) => r.text())
        .then(
          (t) => {
            try {
              done(JSON.parse(t));
            } catch {
              done(null);
            }
          },
          () => {
            done(null);
          },
        );
    }
    var xhr = new win.XMLHttpRequest();
    xhr.open('GET', url);
    xhr.withCredentials = true;
    for (var k in h) xhr.setRequestHeader(k, h[k]);
    xhr.onload = () => {
      try {
        done(JSON.parse(xhr.responseText));
      } catch {
        done(null);
      }
    };
    xhr.onerror = () => {
      done(null);
    };
    xhr.send();
  }
  // A hostile script (switch `forged`): after each answer, a copy in the extension's hook message, for the same request.
  function forge(url, data) {
    if (config.forged === 'none' || !data || !Array.isArray(data.place)) return;
    var copy = JSON.parse(JSON.stringify(data));
    var organic = copy.place.filter((r) => r.sourceId !== 'ad');
    if (config.forged === 'coords')
      organic.forEach((r) => {
        if (r.lat) {
          r.lat = String(Number(r.lat) + 0.05);
          r.lon = String(Number(r.lon) + 0.05);
        }
        if (r.x) {
          r.x = String(Number(r.x) + 11000);
          r.y = String(Number(r.y) + 14000);
          delete r.roadview;
        }
      });
    if (config.forged === 'ids-shifted') {
      var ids = organic.map((r) => r.confirmid || r.cid);
      organic.forEach((r, i) => {
        var id = ids[(i + 1) % ids.length];
        if (r.confirmid) r.confirmid = id;
        else r.cid = id;
      });
    }
    if (config.forged === 'count-high') {
      copy.place_totalcount = String(Number(data.place_totalcount) * 10 + 1000);
      copy.page_count = Number(copy.place_totalcount);
    }
    if (config.forged === 'count-low') {
      copy.place_totalcount = String(organic.length);
      copy.page_count = organic.length;
    }
    var body = JSON.stringify(copy);
    win.postMessage(
      {
        source: config.hookSource,
        phase: 'end',
        url: url,
        outcome: 'body',
        status: 200,
        finalUrl: url,
        contentType: 'application/json; charset=utf-8',
        body: body,
      },
      '*',
    );
  }
  function transport(page, done) {
    if (typeof win.__replicaKakaoTransport === 'function') {
      var cb = config.transport === 'jsonp' ? `jQuery${config.jqueryId}_${++state.seq}` : null;
      return win.__replicaKakaoTransport(requestUrl(page, cb), done);
    }
    if (config.transport !== 'jsonp') {
      var url = requestUrl(page, null);
      var answered = (data) => {
        done(data);
        forge(url, data);
      };
      if (MAPSEARCH)
        return gate(url, (token) => {
          get(url, token, answered);
        });
      return get(url, null, answered);
    }
    var name = `jQuery${config.jqueryId}_${++state.seq}`;
    var script = doc.createElement('script');
    var src = requestUrl(page, name);
    win[name] = (data) => {
      delete win[name];
      script.remove();
      done(data);
      forge(src, data);
    };
    script.onerror = () => {
      delete win[name];
      script.remove();
      done(null);
    };
    script.src = src;
    doc.head.appendChild(script);
  }
  function load(page) {
    $('info.search.place').setAttribute('aria-busy', 'true');
    transport(page, (data) => {
      $('info.search.place').removeAttribute('aria-busy');
      if (!data || !Array.isArray(data.place)) {
        $('info.search.error').classList.remove('HIDDEN');
        return;
      }
      state.page = page;
      state.total = Number(data.place_totalcount) || 0;
      // The 2026 endpoint says how many one can page to (B4b [~]); map.daum's page_count is not that.
      state.reachable = MAPSEARCH ? Number(data.page_count) || 0 : state.total;
      state.records = data.place;
      render();
    });
  }
  function lastPage() {
    return Math.min(config.capPages, Math.ceil(Math.min(state.total, state.reachable) / PAGE));
  }
  function item(r, index) {
    var ad = r.sourceId === 'ad';
    var id = r.confirmid || r.cid;
    var sub = r.last_cate_name || '';
    var cls = `PlaceItem clickArea${index === 0 ? ' PlaceItem-ACTIVE' : ''}${ad ? ' AdItem' : ''}`;
    var title =
      ad || config.brokenItems
        ? el('strong', { class: 'tit_name' }, [el('span', { class: 'link_title' }, [r.name]), el('span', { class: 'ico_ad' }, [ad ? '광고' : ''])])
        : el('strong', { class: 'tit_name' }, [el('a', { class: 'link_name', 'data-id': 'name', title: r.name, href: '#' }, [r.name])]);
    var head = el('div', { class: 'head_item clickArea' }, [title, el('span', { class: 'subcategory clickable', 'data-id': 'subcategory' }, [sub])]);
    var rated = Number(r.rating_count) > 0;
    var rating = el('div', { class: 'rating clickArea' }, [
      el('span', { class: 'score' }, [
        el('em', { class: 'num', 'data-id': 'scoreNum' }, [rated ? Number(r.rating_average).toFixed(1) : '0.0']),
        el('a', { class: 'numberofscore', 'data-id': 'numberofscore', href: '#' }, [`${String(Number(r.rating_count) || 0)}건`]),
      ]),
    ]);
    var addr = el('div', { class: 'addr' }, [
      el('p', { 'data-id': 'address', title: r.new_address || r.address }, [r.new_address || r.address]),
      el('p', { class: 'lot_number', 'data-id': 'otherAddr' }, [`(지번) ${r.address}`]),
    ]);
    var contact = el('div', { class: 'contact clickArea' }, [el('span', { class: 'phone', 'data-id': 'phone' }, [r.tel || ''])]);
    if (!ad && !config.brokenItems)
      contact.appendChild(el('a', { class: 'moreview', 'data-id': 'moreview', href: `${config.placeOrigin}/${id}`, target: '_blank' }, ['상세보기']));
    var info = [addr];
    if (r.replica_period_txt)
      info.push(
        el('div', { class: 'openhour' }, [
          el('p', { class: 'periodWarp' }, [
            el('span', { class: 'screen_out' }, ['영업시간']),
            el('a', { 'data-id': 'periodTxt', href: '#' }, [r.replica_period_txt]),
          ]),
        ]),
      );
    info.push(contact);
    return el('li', { class: cls, 'data-index': String(index) }, [head, rating, el('div', { class: 'info_item' }, info)]);
  }
  function render() {
    var list = $('info.search.place.list');
    while (list.firstChild) list.removeChild(list.firstChild);
    var organic = state.records.filter((r) => r.sourceId !== 'ad');
    var ads = state.records.filter((r) => r.sourceId === 'ad');
    var shown = state.moreOpened ? organic : organic.slice(0, config.previewCount);
    ads.concat(shown).forEach((r, i) => {
      list.appendChild(item(r, i));
    });
    var none = state.total === 0;
    setHidden($('info.noPlace'), !none);
    setHidden($('info.search.place'), none);
    setHidden($('info.search.place.more'), state.moreOpened || state.total <= config.previewCount);
    var last = lastPage();
    var pagerOn = state.moreOpened && last > 1;
    setHidden($('info.search.page'), !pagerOn);
    var block = Math.floor((state.page - 1) / 5);
    for (var slot = 1; slot <= 5; slot++) {
      var a = $(`info.search.page.no${slot}`);
      var n = block * 5 + slot;
      a.textContent = String(n);
      setHidden(a, !pagerOn || n > last);
      a.classList.toggle('ACTIVE', n === state.page);
    }
    $('info.search.page.prev').className = block > 0 ? 'prev' : 'prev disabled';
    $('info.search.page.next').className = (block + 1) * 5 + 1 <= last ? 'next' : 'next disabled';
  }
  function on(id, fn) {
    var node = $(id);
    if (node)
      node.addEventListener('click', (e) => {
        e.preventDefault();
        fn();
      });
  }
  on('info.search.place.more', () => {
    state.moreOpened = true;
    if (config.moreLandsOn === 2 && lastPage() >= 2) load(2);
    else render();
  });
  for (var s = 1; s <= 5; s++)
    ((slot) => {
      on(`info.search.page.no${slot}`, () => {
        load(Math.floor((state.page - 1) / 5) * 5 + slot);
      });
    })(s);
  on('info.search.page.next', () => {
    var n = (Math.floor((state.page - 1) / 5) + 1) * 5 + 1;
    if (n <= lastPage()) load(n);
  });
  on('info.search.page.prev', () => {
    var b = Math.floor((state.page - 1) / 5);
    if (b > 0) load((b - 1) * 5 + 1);
  });
  var control = config.boundsControl ? doc.querySelector('[data-replica-bounds]') : null;
  var research = () => {
    state.moreOpened = false;
    load(1);
  };
  if (control && control.type === 'checkbox')
    control.addEventListener('change', () => {
      state.bounded = control.checked;
      research();
    });
  else if (control)
    control.addEventListener('click', (e) => {
      e.preventDefault();
      if (config.boundsMarkup === 'action-button') state.bounded = true;
      else {
        state.bounded = !state.bounded;
        control.setAttribute(config.boundsMarkup === 'role-checkbox' ? 'aria-checked' : 'aria-pressed', String(state.bounded));
      }
      research();
    });
  var form = $('search.keyword');
  if (form)
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      var q = $('search.keyword.query').value.trim();
      if (q) {
        state.query = q;
        state.moreOpened = false;
        load(1);
      }
    });
  if (state.query) load(1);
  return { state: state, load: load, requestUrl: requestUrl };
}
