// The Kakao replica's search page script (plain JS, inlined by pages.ts; run by Chromium and by
// happy-dom in unit tests). It fetches map.daum the way the page does (JSONP by default) and
// builds the list, "장소 더보기", the pager and "no results" from the answer.
// eslint-disable-next-line no-unused-vars
function replicaKakaoSearchPage(config, win) {
  var doc = win.document;
  var PAGE = 15;
  var $ = function (id) { return doc.getElementById(id); };
  var state = { query: config.query, page: 1, moreOpened: false, total: 0, records: [], seq: 0 };

  function el(tag, attrs, children) {
    var e = doc.createElement(tag);
    for (var k in attrs) if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    (children || []).forEach(function (c) { e.appendChild(typeof c === 'string' ? doc.createTextNode(c) : c); });
    return e;
  }
  function setHidden(node, hidden) {
    if (!node) return;
    node.classList.toggle('HIDDEN', hidden);
  }
  function boundsChecked() {
    var box = $('info.search.place.bounds');
    return !!(config.boundsControl && box && box.checked);
  }
  function mapRect() {
    var v = config.view;
    var w = Math.max(100, (win.innerWidth || 1024) - config.panelWidth);
    var h = Math.max(100, win.innerHeight || 768);
    var hw = (w / 2) * config.wcongPerPx;
    var hh = (h / 2) * config.wcongPerPx;
    return [Math.floor(v.x - hw), Math.floor(v.y - hh), Math.ceil(v.x + hw), Math.ceil(v.y + hh)].join(',');
  }
  function requestUrl(page, callback) {
    var p = new win.URLSearchParams();
    p.set('q', state.query);
    p.set('msFlag', boundsChecked() ? 'S' : 'A');
    p.set('sort', '0');
    p.set('page', String(page));
    if (boundsChecked()) { p.set('rect', mapRect()); p.set('mcheck', 'Y'); }
    if (callback) p.set('callback', callback);
    return config.searchOrigin + '/mapsearch/map.daum?' + p.toString();
  }
  function transport(page, done) {
    if (typeof win.__replicaKakaoTransport === 'function') {
      var cb = config.transport === 'jsonp' ? 'jQuery' + config.jqueryId + '_' + (++state.seq) : null;
      return win.__replicaKakaoTransport(requestUrl(page, cb), done);
    }
    if (config.transport === 'xhr') {
      var xhr = new win.XMLHttpRequest();
      xhr.open('GET', requestUrl(page, null));
      xhr.withCredentials = true;
      xhr.onload = function () { try { done(JSON.parse(xhr.responseText)); } catch (e) { done(null); } };
      xhr.onerror = function () { done(null); };
      return xhr.send();
    }
    var name = 'jQuery' + config.jqueryId + '_' + (++state.seq);
    var script = doc.createElement('script');
    win[name] = function (data) { delete win[name]; script.remove(); done(data); };
    script.onerror = function () { delete win[name]; script.remove(); done(null); };
    script.src = requestUrl(page, name);
    doc.head.appendChild(script);
  }
  function load(page) {
    $('info.search.place').setAttribute('aria-busy', 'true');
    transport(page, function (data) {
      $('info.search.place').removeAttribute('aria-busy');
      if (!data || !Array.isArray(data.place)) { $('info.search.error').classList.remove('HIDDEN'); return; }
      state.page = page;
      state.total = Number(data.place_totalcount) || 0;
      state.records = data.place;
      render();
    });
  }
  function lastPage() {
    return Math.min(config.capPages, Math.ceil(state.total / PAGE));
  }
  function item(r, index) {
    var ad = r.sourceId === 'ad';
    var id = r.confirmid || r.cid;
    var sub = r.last_cate_name || '';
    var cls = 'PlaceItem clickArea' + (index === 0 ? ' PlaceItem-ACTIVE' : '') + (ad ? ' AdItem' : '');
    var title = ad || config.brokenItems
      ? el('strong', { class: 'tit_name' }, [el('span', { class: 'link_title' }, [r.name]), el('span', { class: 'ico_ad' }, [ad ? '광고' : ''])])
      : el('strong', { class: 'tit_name' }, [el('a', { class: 'link_name', 'data-id': 'name', title: r.name, href: '#' }, [r.name])]);
    var head = el('div', { class: 'head_item clickArea' }, [title, el('span', { class: 'subcategory clickable', 'data-id': 'subcategory' }, [sub])]);
    var rated = Number(r.rating_count) > 0;
    var rating = el('div', { class: 'rating clickArea' }, [
      el('span', { class: 'score' }, [
        el('em', { class: 'num', 'data-id': 'scoreNum' }, [rated ? Number(r.rating_average).toFixed(1) : '0.0']),
        el('a', { class: 'numberofscore', 'data-id': 'numberofscore', href: '#' }, [String(Number(r.rating_count) || 0) + '건']),
      ]),
    ]);
    var addr = el('div', { class: 'addr' }, [
      el('p', { 'data-id': 'address', title: r.new_address || r.address }, [r.new_address || r.address]),
      el('p', { class: 'lot_number', 'data-id': 'otherAddr' }, ['(지번) ' + r.address]),
    ]);
    var contact = el('div', { class: 'contact clickArea' }, [el('span', { class: 'phone', 'data-id': 'phone' }, [r.tel || ''])]);
    if (!ad && !config.brokenItems) contact.appendChild(el('a', { class: 'moreview', 'data-id': 'moreview', href: config.placeOrigin + '/' + id, target: '_blank' }, ['상세보기']));
    return el('li', { class: cls, 'data-index': String(index) }, [head, rating, el('div', { class: 'info_item' }, [addr, contact])]);
  }
  function render() {
    var list = $('info.search.place.list');
    while (list.firstChild) list.removeChild(list.firstChild);
    var organic = state.records.filter(function (r) { return r.sourceId !== 'ad'; });
    var ads = state.records.filter(function (r) { return r.sourceId === 'ad'; });
    var shown = state.moreOpened ? organic : organic.slice(0, config.previewCount);
    ads.concat(shown).forEach(function (r, i) { list.appendChild(item(r, i)); });
    var none = state.total === 0;
    setHidden($('info.noPlace'), !none);
    setHidden($('info.search.place'), none);
    setHidden($('info.search.place.more'), state.moreOpened || state.total <= config.previewCount);
    var last = lastPage();
    var pagerOn = state.moreOpened && last > 1;
    setHidden($('info.search.page'), !pagerOn);
    var block = Math.floor((state.page - 1) / 5);
    for (var slot = 1; slot <= 5; slot++) {
      var a = $('info.search.page.no' + slot);
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
    if (node) node.addEventListener('click', function (e) { e.preventDefault(); fn(); });
  }
  on('info.search.place.more', function () {
    state.moreOpened = true;
    if (config.moreLandsOn === 2 && lastPage() >= 2) load(2); else render();
  });
  for (var s = 1; s <= 5; s++) (function (slot) {
    on('info.search.page.no' + slot, function () { load(Math.floor((state.page - 1) / 5) * 5 + slot); });
  })(s);
  on('info.search.page.next', function () {
    var n = (Math.floor((state.page - 1) / 5) + 1) * 5 + 1;
    if (n <= lastPage()) load(n);
  });
  on('info.search.page.prev', function () {
    var b = Math.floor((state.page - 1) / 5);
    if (b > 0) load((b - 1) * 5 + 1);
  });
  var box = $('info.search.place.bounds');
  if (box) box.addEventListener('change', function () { state.moreOpened = false; load(1); });
  var form = $('search.keyword');
  if (form) form.addEventListener('submit', function (e) {
    e.preventDefault();
    var q = $('search.keyword.query').value.trim();
    if (q) { state.query = q; state.moreOpened = false; load(1); }
  });
  if (state.query) load(1);
  return { state: state, load: load, requestUrl: requestUrl };
}
