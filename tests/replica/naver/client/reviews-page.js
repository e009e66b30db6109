/*
 * The Naver replica's visitor reviews page script (plain JS: it is inlined into the page as is):
 * map-pages-spec §5 (S26), naver-kakao-notes A.
 *
 * The server renders the first page of items with these same functions; the script then loads the
 * next pages from the page's list request (`{page path}/list?sort&size&cursor`, one XHR a page) when
 * the "펼쳐서 더보기" control is clicked or, under `more: 'scroll'`, when the window is scrolled near
 * its bottom. Choosing 최신순 / 추천순 reloads the list from the top. A long text shows its first
 * CUT_CHARS characters until its "더보기" is clicked. The forms nobody has confirmed come from the
 * replica's switches in `config` (reviews-page.ts NaverReviewsPageConfig).
 *
 * Only function declarations at the top level: reviews-page.ts wraps this file in an IIFE for the
 * page, and reviews-client.ts evaluates it in Node to render the same items for the server and tests.
 */

/* Texts longer than this (in characters, not UTF-16 units) are cut behind the expander. */
var NAVER_CUT_CHARS = 150;
var NAVER_NEAR_BOTTOM_PX = 200;
var NAVER_SORT_LABELS = { recommend: '추천순', recent: '최신순' };
/* A 1×1 transparent GIF: thumbnails must not send the browser to a real image host. */
var NAVER_THUMB = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

function naverEscape(value) {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/* The text cut after NAVER_CUT_CHARS characters with an ellipsis, or null when it fits. */
function naverCutText(text) {
  var chars = Array.from(text);
  return chars.length > NAVER_CUT_CHARS ? `${chars.slice(0, NAVER_CUT_CHARS).join('')}…` : null;
}

/* A printed date ("24.3.5.화"), then, under fullDate 'blind', the hidden full date. */
function renderNaverDate(date, full, opts) {
  return `<time aria-hidden="true">${naverEscape(date)}</time>${opts.fullDate === 'blind' ? `<span class="pui__blind">${naverEscape(full)}</span>` : ''}`;
}

function renderNaverProfile(item) {
  var photos = item.authorPhotos > 0 ? `<span class="pui__WN-kAf">사진 ${item.authorPhotos}</span>` : '';
  return (
    `<div class="pui__JiVbY3"><a href="#" class="pui__4Gicix" data-pui-click-code="profile"><span class="pui__NMi-Dp">${naverEscape(item.author)}</span></a>` +
    `<div class="pui__RuLAax"><span class="pui__WN-kAf">리뷰 ${item.authorReviews}</span>${photos}</div>` +
    '<button type="button" class="pui__fxGMWj">팔로우</button></div>'
  );
}

function renderNaverStars(item) {
  if (item.rating === null || item.rating === undefined) return '';
  return `<div class="pui__6aOBYt"><span class="pui__-3Y4Rg" role="img" aria-label="별점 ${item.rating}점"></span></div>`;
}

function renderNaverPhotos(item) {
  if (!item.photos) return '';
  var html = '<div class="pui__-0Ter1">';
  for (var i = 1; i <= item.photos; i++) {
    html += `<a href="#" role="button" class="place_thumb" data-pui-click-code="image"><img src="${NAVER_THUMB}" alt="리뷰 사진 ${i}" width="120" height="120"></a>`;
  }
  return `${html}</div>`;
}

/* The text area: the text, cut with its "더보기" (an a[role=button] or a <button>) unless expanded or under expander 'none'. */
function renderNaverTextArea(item, expanded, opts) {
  if (item.text === '') return '';
  var cut = opts.expander === 'none' || expanded ? null : naverCutText(item.text);
  var html = `<div class="pui__vn15t2"><span class="pui__xtsQN-">${naverEscape(cut === null ? item.text : cut)}</span>`;
  if (cut !== null && opts.expander === 'button') html += '<button type="button" class="pui__wFzIYl" data-pui-click-code="rvshowmore">더보기</button>';
  else if (cut !== null) html += '<a href="#" role="button" class="pui__wFzIYl" data-pui-click-code="rvshowmore">더보기</a>';
  return `${html}</div>`;
}

function renderNaverKeywords(item) {
  if (!item.keywords.length) return '';
  return `<div class="pui__HLNvmI">${item.keywords.map((k) => `<span class="pui__jhpEyP">${naverEscape(k)}</span>`).join('')}</div>`;
}

/* 방문일, N번째 방문, 인증 수단, 작성일 (the labels hidden, as the page's blind spans are). */
function renderNaverFacts(item, opts) {
  return (
    '<div class="pui__QKE5Pr">' +
    `<span class="pui__gfuUIT"><span class="pui__blind">방문일</span>${renderNaverDate(item.visited, item.visitedFull, opts)}</span>` +
    `<span class="pui__gfuUIT">${item.visitCount}번째 방문</span>` +
    `<span class="pui__gfuUIT"><span class="pui__blind">인증 수단</span>${naverEscape(item.verifiedBy)}</span>` +
    `<span class="pui__gfuUIT"><span class="pui__blind">작성일</span>${renderNaverDate(item.written, item.writtenFull, opts)}</span>` +
    '</div>'
  );
}

/* The owner's reply: headed "사장님 댓글" (replyHead 'label') or by the place's name ('name'), then its date and text. */
function renderNaverReply(item, opts) {
  var reply = item.reply;
  if (!reply) return '';
  var head = opts.replyHead === 'name' ? opts.placeName : '사장님 댓글';
  return (
    `<div class="pui__GbW8H7"><div class="pui__MzrP-X"><span class="pui__XE54q7">${naverEscape(head)}</span>` +
    `<span class="pui__4APmFd">${renderNaverDate(reply.date, reply.dateFull, opts)}</span></div>` +
    `<div class="pui__J0tczd">${naverEscape(reply.text)}</div></div>`
  );
}

/* Under idMode 'link' the review's id is only in its share link. */
function renderNaverShare(item, opts) {
  if (opts.idMode !== 'link') return '';
  return `<a href="${naverEscape(`${opts.pagePath}?reviewId=${encodeURIComponent(item.id)}`)}" class="pui__D8ICkG" data-pui-click-code="share">공유</a>`;
}

/*
 * One review item. opts: { expander, idMode, replyHead, fullDate, placeName, pagePath } (the config's
 * switches). Under idMode 'data' the id is the `<li>`'s `data-review-id`.
 */
function renderNaverReview(item, opts) {
  var id = opts.idMode === 'data' ? ` data-review-id="${naverEscape(item.id)}"` : '';
  return (
    `<li class="place_apply_pui EjjAW"${id}>` +
    renderNaverProfile(item) +
    renderNaverStars(item) +
    renderNaverPhotos(item) +
    renderNaverTextArea(item, false, opts) +
    renderNaverKeywords(item) +
    renderNaverFacts(item, opts) +
    renderNaverReply(item, opts) +
    renderNaverShare(item, opts) +
    '</li>'
  );
}

/* The two sort tabs, the chosen one aria-selected; their hrefs are the page with `reviewSort`, for a tab opened apart. */
// biome-ignore lint/correctness/noUnusedVariables: the server renders the tabs with it (tests/replica/naver/reviews-page.ts).
function renderNaverSortTabs(current, pagePath) {
  var tabs = ['recommend', 'recent'].map(
    (s) =>
      `<a href="${naverEscape(`${pagePath}?reviewSort=${s}`)}" role="tab" aria-selected="${s === current}" class="place_tab_btn" data-sort="${s}">${NAVER_SORT_LABELS[s]}</a>`,
  );
  return `<div class="mlywZ" role="tablist" aria-label="리뷰 정렬">${tabs.join('')}</div>`;
}

/* The control at the bottom: "펼쳐서 더보기", or the same kept with aria-disabled once nothing is left (end 'disabled'). */
function renderNaverMore(disabled) {
  return `<div class="lfH3O"><a href="#" role="button" class="fvwqf"${disabled ? ' aria-disabled="true"' : ''}><span class="TeItc">펼쳐서 더보기</span></a></div>`;
}

/* What the bottom holds: the control while more is left, then nothing or the disabled control; nothing at all under 'scroll'. */
function renderNaverMoreSlot(config, cursor) {
  if (config.more === 'scroll') return '';
  if (cursor) return renderNaverMore(false);
  return config.end === 'disabled' ? renderNaverMore(true) : '';
}

function naverReviewsRequestUrl(listPath, sort, size, cursor) {
  return `${listPath}?sort=${sort}&size=${size}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
}

// biome-ignore lint/correctness/noUnusedVariables: called by the page that embeds this script (tests/replica/naver/reviews-page.ts).
function replicaNaverReviewsPage(config, win) {
  var doc = win.document;
  var list = doc.getElementById('_review_list');
  var slot = doc.querySelector('.NSTUp');
  if (!list || !slot) return;
  var opts = config.render;
  /* Each item element → its review (the full text lives here until "더보기" shows it). */
  var items = new WeakMap();
  var sort = config.sort;
  var cursor = config.cursor;
  var loading = false;
  /* Bumped when the sort changes, so a page asked for the old order is dropped. */
  var generation = 0;

  function remember(from, reviews) {
    for (var i = 0; i < reviews.length; i++) items.set(list.children[from + i], reviews[i]);
  }

  function append(reviews) {
    var before = list.children.length;
    list.insertAdjacentHTML('beforeend', reviews.map((r) => renderNaverReview(r, opts)).join(''));
    remember(before, reviews);
  }

  function request(from, onAnswer) {
    var xhr = new win.XMLHttpRequest();
    xhr.open('GET', naverReviewsRequestUrl(config.listPath, sort, config.size, from));
    xhr.onload = () => {
      var answer = null;
      try {
        if (xhr.status === 200) answer = JSON.parse(xhr.responseText);
      } catch {
        answer = null;
      }
      onAnswer(answer);
    };
    xhr.onerror = () => onAnswer(null);
    xhr.send();
  }

  /* One page from `from` (null: the top); a failed request leaves the control as it was, to be tried again. */
  function load(from) {
    if (loading) return;
    loading = true;
    var asked = generation;
    list.setAttribute('aria-busy', 'true');
    request(from, (answer) => {
      if (asked !== generation) return;
      loading = false;
      list.removeAttribute('aria-busy');
      if (answer === null) return;
      append(answer.items);
      cursor = answer.cursor;
      slot.innerHTML = renderNaverMoreSlot(config, cursor);
      fillIfShort();
    });
  }

  function loadMore() {
    if (cursor) load(cursor);
  }

  function scroller() {
    return doc.scrollingElement || doc.documentElement;
  }

  function nearBottom() {
    var el = scroller();
    return el.scrollTop + el.clientHeight >= el.scrollHeight - NAVER_NEAR_BOTTOM_PX;
  }

  /* A laid-out page its items do not fill yet cannot be scrolled, so the next page comes anyway. */
  function fillIfShort() {
    var el = scroller();
    if (config.more === 'scroll' && el.clientHeight > 0 && el.scrollHeight - el.clientHeight <= NAVER_NEAR_BOTTOM_PX) loadMore();
  }

  function chooseSort(next) {
    if (next === sort) return;
    sort = next;
    for (var tab of doc.querySelectorAll('.mlywZ [role="tab"]')) tab.setAttribute('aria-selected', String(tab.getAttribute('data-sort') === sort));
    generation += 1;
    loading = false;
    cursor = null;
    list.innerHTML = '';
    slot.innerHTML = '';
    load(null);
  }

  function expand(li) {
    var area = li.querySelector('.pui__vn15t2');
    if (area) area.outerHTML = renderNaverTextArea(items.get(li), true, opts);
  }

  function itemOf(node) {
    var n = node;
    while (n && !items.has(n)) n = n.parentElement;
    return n;
  }

  doc.addEventListener('click', (event) => {
    var target = event.target;
    if (!target?.closest) return;
    var more = target.closest('[data-pui-click-code="rvshowmore"]');
    var li = more && itemOf(more);
    if (li) {
      event.preventDefault();
      return expand(li);
    }
    var control = target.closest('a.fvwqf');
    if (control) {
      event.preventDefault();
      if (control.getAttribute('aria-disabled') !== 'true') loadMore();
      return;
    }
    var tab = target.closest('.mlywZ [role="tab"]');
    if (tab) {
      event.preventDefault();
      chooseSort(tab.getAttribute('data-sort'));
    }
  });

  remember(0, config.items);
  if (config.more === 'scroll') {
    win.addEventListener('scroll', () => {
      if (nearBottom()) loadMore();
    });
    fillIfShort();
  }
}
