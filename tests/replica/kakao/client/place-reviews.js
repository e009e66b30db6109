/*
 * The Kakao replica's place page reviews (plain browser JS, run inside the page). Config (JSON in
 * the page): { placeId, apiOrigin, count, tab, sort, more, pageKey, naming, batch, cut }, the
 * switches of ../reviews-switches.ts. The 후기 tab (or link, or nothing) shows the section and
 * fetches the first answer from place-api with `pf: web`; 추천순/최신순 refetch from the start;
 * "후기 더보기" (or "더보기", or scrolling) fetches the next. Items are built with textContent:
 * reviewers write anything.
 */
// biome-ignore lint/correctness/noUnusedVariables: called by the page that embeds this script (tests/replica/kakao/pages.ts).
function replicaKakaoReviews(config) {
  var root = document.getElementById('replica-reviews');
  if (!root) return;
  var order = config.sort === 'latest-default' || config.sort === 'none' ? 'LATEST' : 'RECOMMENDED';
  var state = { loading: false, hasNext: false, lastId: null, page: 1, cursor: null, generation: 0 };
  var list = null;
  var moreSlot = null;

  function pick(obj, snake) {
    if (config.naming === 'snake') return obj[snake];
    return obj[snake.replace(/_([a-z])/g, (_m, c) => c.toUpperCase())];
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function dotted(said) {
    var m = /^(\d{4})[-.](\d{2})[-.](\d{2})/.exec(said || '');
    return m ? `${m[1]}.${m[2]}.${m[3]}.` : '';
  }

  function requestUrl(first) {
    var p = [];
    if (config.sort === 'renamed-aria') p.push(`sort_type=${order === 'LATEST' ? 'latest' : 'recommend'}`);
    else if (config.sort !== 'none') p.push(`order=${order}`);
    p.push('only_photo_review=false');
    if (!first) {
      if (config.pageKey === 'previous_last_review_id') p.push(`previous_last_review_id=${state.lastId}`);
      else if (config.pageKey === 'page') p.push(`page=${state.page}`);
      else p.push(`cursor=${encodeURIComponent(state.cursor)}`);
    }
    return `${config.apiOrigin}/places/tab/reviews/kakaomap/${config.placeId}?${p.join('&')}`;
  }

  function renderItem(r) {
    var li = el('li', { class: 'item_review' });
    var who = el('div', { class: 'info_user' });
    who.appendChild(el('span', { class: 'name_user' }, pick(pick(pick(r, 'meta'), 'owner'), 'nickname')));
    li.appendChild(who);
    var stars = el('div', { class: 'info_grade' });
    stars.appendChild(el('span', { class: 'screen_out' }, '별점'));
    stars.appendChild(el('span', { class: 'num_grade' }, String(pick(r, 'star_rating'))));
    li.appendChild(stars);
    var text = pick(r, 'contents') || '';
    if (text) {
      var p = el('p', { class: 'desc_review' });
      if (config.cut === 'more' && text.length > 80) {
        var shortText = el('span', {}, `${text.slice(0, 80)}…`);
        var more = el('button', { type: 'button', class: 'btn_more' }, '더보기');
        more.addEventListener('click', () => {
          shortText.textContent = text;
          more.remove();
        });
        p.appendChild(shortText);
        p.appendChild(more);
      } else p.textContent = text;
      li.appendChild(p);
    }
    li.appendChild(el('span', { class: 'txt_date' }, dotted(pick(r, 'registered_at'))));
    var photos = pick(r, 'photo_count');
    if (photos > 0) li.appendChild(el('span', { class: 'txt_photo' }, `사진 ${photos}`));
    return li;
  }

  function renderMore() {
    if (moreSlot) moreSlot.remove();
    moreSlot = null;
    if (!state.hasNext || config.more === 'scroll') return;
    moreSlot = el('div', { class: 'wrap_more' });
    var c =
      config.more === 'button'
        ? el('button', { type: 'button', class: 'link_more' }, '후기 더보기')
        : el('a', { href: '#', role: 'button', class: 'link_more' }, '더보기');
    c.addEventListener('click', (e) => {
      e.preventDefault();
      load(false);
    });
    moreSlot.appendChild(c);
    root.appendChild(moreSlot);
  }

  function load(first) {
    if (state.loading) return;
    state.loading = true;
    var generation = state.generation;
    fetch(requestUrl(first), { headers: { pf: 'web' }, credentials: 'include' })
      .then((res) => res.json())
      .then((json) => {
        if (generation !== state.generation) return;
        state.loading = false;
        var reviews = pick(json, 'reviews') || [];
        for (var i = 0; i < reviews.length; i++) list.appendChild(renderItem(reviews[i]));
        if (reviews.length) state.lastId = pick(reviews[reviews.length - 1], 'review_id');
        state.page += 1;
        state.cursor = pick(json, 'next_cursor') || null;
        state.hasNext = pick(json, 'has_next') === true;
        renderMore();
      })
      .catch(() => {
        state.loading = false;
      });
  }

  function restart() {
    state.generation += 1;
    state.loading = false;
    state.lastId = null;
    state.page = 1;
    state.cursor = null;
    state.hasNext = false;
    list.textContent = '';
    renderMore();
    load(true);
  }

  function renderSorts() {
    if (config.sort === 'none') return;
    var bar = el('div', { class: 'wrap_sort' });
    [
      ['RECOMMENDED', '추천순'],
      ['LATEST', '최신순'],
    ].forEach((pair) => {
      var b = el('button', { type: 'button', class: `btn_sort${order === pair[0] ? ' on' : ''}` }, pair[1]);
      if (config.sort === 'param-aria' || config.sort === 'renamed-aria') b.setAttribute('aria-pressed', String(order === pair[0]));
      b.addEventListener('click', () => {
        if (order === pair[0]) return;
        order = pair[0];
        Array.prototype.forEach.call(bar.children, (other) => {
          var on = other === b;
          other.className = `btn_sort${on ? ' on' : ''}`;
          if (other.hasAttribute('aria-pressed')) other.setAttribute('aria-pressed', String(on));
        });
        restart();
      });
      bar.appendChild(b);
    });
    root.appendChild(bar);
  }

  var opened = false;
  function open() {
    if (opened) return;
    opened = true;
    root.hidden = false;
    root.appendChild(el('strong', { class: 'tit_review' }, `후기 ${config.count}`));
    renderSorts();
    list = el('ul', { class: 'list_review' });
    root.appendChild(list);
    load(true);
  }

  if (config.more === 'scroll') {
    window.addEventListener('scroll', () => {
      if (!opened || !state.hasNext || state.loading) return;
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 300) load(false);
    });
  }

  var tabs = document.getElementById('replica-tabs');
  if (config.tab === 'tab') {
    tabs.setAttribute('role', 'tablist');
    [
      ['홈', true],
      ['메뉴', false],
      [`후기 ${config.count}`, false],
    ].forEach((t, i) => {
      var a = el('a', { role: 'tab', href: '#', 'aria-selected': String(t[1]) }, t[0]);
      a.addEventListener('click', (e) => {
        e.preventDefault();
        Array.prototype.forEach.call(tabs.children, (o) => {
          o.setAttribute('aria-selected', String(o === a));
        });
        if (i === 2) open();
      });
      tabs.appendChild(a);
    });
  } else if (config.tab === 'link') {
    tabs.appendChild(el('a', { href: '#home' }, '홈'));
    tabs.appendChild(el('a', { href: '#review' }, '후기'));
    window.addEventListener('hashchange', () => {
      if (location.hash === '#review') open();
    });
    if (location.hash === '#review') open();
  } else open();
}
