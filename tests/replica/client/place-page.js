/*
 * The replica place page's script (plain JS: it is inlined into the page as is): its tabs and the
 * Reviews tab (map-pages-spec §1.6, §5).
 *
 * Clicking Reviews swaps the overview for the reviews panel without a navigation: the summary (average,
 * count, one row per star), the sort control, and the cards, asked from `/maps/rpc/listugcposts` one
 * batch at a time as the panel is scrolled near its bottom, with a progress bar while a batch loads.
 * Signed out (the limited view, S8) the page has no tabs: the overview shows the first five reviews
 * and nothing more loads. The forms nobody has confirmed (batch size, sort control, expander, where the
 * review id sits, the end of the list, translations) come from the replica's switches in `config`
 * (reviews-view.ts ReviewsPageConfig).
 *
 * Only function declarations at the top level: pages.ts wraps this file in an IIFE for the page, and
 * place-client.ts evaluates it in Node to render the same cards for unit tests.
 */

var REVIEWS_PATH = '/maps/rpc/listugcposts';
/* Texts longer than this (in characters, not UTF-16 units) are cut behind the expander. */
var CUT_CHARS = 200;
var NEAR_BOTTOM_PX = 100;
var SORTS = ['relevant', 'newest', 'highest', 'lowest'];
var SORT_LABELS = { relevant: 'Most relevant', newest: 'Newest', highest: 'Highest rating', lowest: 'Lowest rating' };
var GLYPH_SORT = '\ue164';

function escapeHtml(value) {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function formatCount(n) {
  return Number(n).toLocaleString('en-US');
}

function starsLabel(n) {
  return n === 1 ? '1 star' : `${n} stars`;
}

function reviewsLabel(n) {
  return `${formatCount(n)} ${n === 1 ? 'review' : 'reviews'}`;
}

/* The first class of a class list, as a selector (the names come renamed in variant 'b'). */
function classSelector(list) {
  return `.${list.split(' ')[0]}`;
}

function starIcons(rating, cls) {
  var html = '';
  for (var i = 1; i <= 5; i++) html += `<span class="${cls.star}${i <= rating ? ` ${cls.starOn}` : ''}"></span>`;
  return html;
}

/* The text cut after CUT_CHARS characters with an ellipsis, or null when it fits. */
function cutText(text) {
  var chars = Array.from(text);
  return chars.length > CUT_CHARS ? `${chars.slice(0, CUT_CHARS).join('')}…` : null;
}

function newCardState(review) {
  return { review: review, expanded: false, original: false };
}

/* A card's text as it stands (translation or original, cut or whole), then the translation's toggle. */
function renderReviewBody(state, opts) {
  var cls = opts.classes;
  var review = state.review;
  if (review.text === '') return '';
  var translated = opts.translated && review.translation !== null;
  var text = translated && !state.original ? review.translation : review.text;
  var cut = opts.expander === 'none' || state.expanded ? null : cutText(text);
  var html = `<span class="${cls.text}">${escapeHtml(cut === null ? text : cut)}</span>`;
  if (cut !== null && opts.expander === 'more') {
    html += `<button class="${cls.more}" aria-label="See more" aria-expanded="false" jsaction="pane.review.expandReview">More</button>`;
  } else if (cut !== null) {
    html += `<span class="${cls.seeMore}" role="button" tabindex="0" jsaction="pane.review.expandReview">See more</span>`;
  }
  if (translated) {
    html +=
      `<div class="${cls.translation}"><span>Translated by Google</span> · ` +
      `<span class="${cls.toggle}" role="button" tabindex="0" jsaction="pane.review.toggleOriginal">${state.original ? 'See translation' : 'See original'}</span></div>`;
  }
  return html;
}

function renderPhotos(review, cls) {
  if (!review.photos) return '';
  var html = `<div class="${cls.photos}">`;
  for (var i = 1; i <= review.photos; i++) {
    html += `<button class="${cls.photo}" aria-label="Photo ${i} on ${escapeHtml(review.author)}&#39;s review" jsaction="pane.review.openPhoto"></button>`;
  }
  return `${html}</div>`;
}

function renderOwnerReply(review, cls) {
  var reply = review.ownerReply;
  if (!reply) return '';
  return (
    `<div class="${cls.reply}"><div class="${cls.replyHead}"><span class="fontTitleSmall">Response from the owner</span> ` +
    `<span class="${cls.replyDate}">${escapeHtml(reply.date)}</span></div><div class="${cls.text}">${escapeHtml(reply.text)}</div></div>`
  );
}

/*
 * One review card. opts: { classes, expander, idLocation, translated } (the config's switches).
 * `idLocation` puts `data-review-id` on the card, on the author's photo button inside it, or nowhere.
 */
function renderReviewCard(review, opts) {
  return cardHtml(newCardState(review), opts);
}

function cardHtml(state, opts) {
  var cls = opts.classes;
  var r = state.review;
  var author = escapeHtml(r.author);
  var id = ` data-review-id="${escapeHtml(r.id)}"`;
  return (
    `<div class="${cls.card}" aria-label="${author}"${opts.idLocation === 'card' ? id : ''} jsaction="mouseover:pane.review.in;mouseout:pane.review.out">` +
    `<div class="${cls.head}"><button class="${cls.avatar}" aria-label="Photo of ${author}"${opts.idLocation === 'child' ? id : ''} jsaction="pane.review.reviewerLink"></button>` +
    `<div class="${cls.author}">${author}</div></div>` +
    `<div class="${cls.meta}"><span class="${cls.stars}" role="img" aria-label="${starsLabel(r.rating)}">${starIcons(r.rating, cls)}</span>` +
    `<span class="${cls.date}">${escapeHtml(r.date)}</span></div>` +
    `<div class="${cls.body}">${renderReviewBody(state, opts)}</div>` +
    renderPhotos(r, cls) +
    renderOwnerReply(r, cls) +
    '</div>'
  );
}

/* summary: { average: "4.5", count, histogram: [1★ … 5★] } */
function renderReviewsSummary(summary, cls) {
  var rows = '';
  for (var k = 5; k >= 1; k--) {
    var n = summary.histogram[k - 1];
    var share = summary.count ? Math.round((100 * n) / summary.count) : 0;
    rows +=
      `<tr class="${cls.histogramRow}" role="img" aria-label="${starsLabel(k)}, ${reviewsLabel(n)}"><td class="fontBodyMedium">${k}</td>` +
      `<td><div class="${cls.histogramBar}"><div style="width:${share}%"></div></div></td></tr>`;
  }
  return (
    `<div class="${cls.summary}"><div class="${cls.summaryBox}"><div class="fontDisplayLarge">${escapeHtml(summary.average)}</div>` +
    `<div class="${cls.stars}" role="img" aria-label="${escapeHtml(summary.average)} stars">${starIcons(Math.round(Number(summary.average)), cls)}</div>` +
    `<div class="fontBodySmall" aria-label="${reviewsLabel(summary.count)}">${reviewsLabel(summary.count)}</div></div>` +
    `<table class="${cls.histogram}"><tbody>${rows}</tbody></table></div>`
  );
}

/* kind: 'menu' (a button; its menu opens on click) | 'chips' (a radio group) | 'absent'. */
function renderSortControl(kind, current, cls) {
  if (kind === 'absent') return '';
  if (kind === 'chips') {
    var chips = SORTS.map(
      (s, i) =>
        `<button class="${cls.chip}" role="radio" aria-checked="${s === current}" data-index="${i}" jsaction="pane.reviews.sortBy"><span>${SORT_LABELS[s]}</span></button>`,
    );
    return `<div class="${cls.chips}" role="radiogroup" aria-label="Sort reviews">${chips.join('')}</div>`;
  }
  return (
    `<div class="${cls.sortBar}"><button class="${cls.sortButton}" aria-label="Sort reviews" aria-haspopup="true" aria-expanded="false" jsaction="pane.reviews.sort">` +
    `<span class="google-symbols" aria-hidden="true">${GLYPH_SORT}</span><span>Sort</span></button></div>`
  );
}

function renderSortMenu(current, cls) {
  var items = SORTS.map(
    (s, i) =>
      `<div class="${cls.menuItem}" role="menuitemradio" aria-checked="${s === current}" tabindex="0" data-index="${i}" jsaction="pane.reviews.sortBy"><div>${SORT_LABELS[s]}</div></div>`,
  );
  return `<div class="${cls.menu}" role="menu" aria-label="Sort reviews">${items.join('')}</div>`;
}

function renderReviewsProgress(cls) {
  return `<div class="${cls.progress}" role="progressbar"><div class="replica-spin"></div></div>`;
}

function renderReviewsEnd(cls) {
  return `<p class="fontBodyMedium"><span class="${cls.end}">You've reached the end of the reviews</span></p>`;
}

/* The Reviews tab's panel: one scrollable element holding the summary, the sort control and the cards. */
function renderReviewsPanel(config, sort) {
  var cls = config.classes;
  return (
    `<div class="${cls.scroller}" tabindex="-1" style="flex:1 1 0;min-height:0;overflow-y:auto">` +
    renderReviewsSummary(config.summary, cls) +
    renderSortControl(config.sortControl, sort, cls) +
    `<div class="${cls.list}"></div><div class="${cls.tail}"></div></div>`
  );
}

function reviewsRequestUrl(featureId, sort, offset, n) {
  return `${REVIEWS_PATH}?place=${encodeURIComponent(featureId)}&sort=${sort}&offset=${offset}&n=${n}`;
}

function parseReviewsAnswer(text) {
  if (text.indexOf(")]}'") !== 0) throw new Error('not a maps answer');
  return JSON.parse(text.slice(text.indexOf('\n') + 1));
}

// biome-ignore lint/correctness/noUnusedVariables: called by the page that embeds this script (tests/replica/pages.ts).
function replicaPlacePage(config, win) {
  var doc = win.document;
  var cls = config.classes;
  var opts = { classes: cls, expander: config.expander, idLocation: config.idLocation, translated: config.translated };
  /* Each card element → its review and whether it is expanded or shows its original. */
  var states = new WeakMap();
  var overview = doc.querySelector(classSelector(cls.overview));
  var panel = null;
  var list = null;
  var tail = null;
  var sort = config.defaultSort;
  var offset = 0;
  var loading = false;
  var done = false;
  /* Bumped when the sort changes, so a batch asked for the old order is dropped. */
  var generation = 0;

  function appendCards(container, reviews) {
    var before = container.children.length;
    container.insertAdjacentHTML('beforeend', reviews.map((r) => renderReviewCard(r, opts)).join(''));
    for (var i = 0; i < reviews.length; i++) states.set(container.children[before + i], newCardState(reviews[i]));
  }

  function cardOf(node) {
    var n = node;
    while (n && !states.has(n)) n = n.parentElement;
    return n;
  }

  function redrawBody(card) {
    card.querySelector(classSelector(cls.body)).innerHTML = renderReviewBody(states.get(card), opts);
  }

  function request(batchSort, from, onAnswer) {
    var xhr = new win.XMLHttpRequest();
    xhr.open('GET', reviewsRequestUrl(config.featureId, batchSort, from, config.batchSize));
    xhr.onload = () => {
      if (String(xhr.responseURL).indexOf('/sorry/') >= 0) {
        // Blocked mid-list: the tab ends up on the sorry page, as a navigation would.
        win.location.href = xhr.responseURL;
        return;
      }
      var answer = null;
      try {
        if (xhr.status === 200) answer = parseReviewsAnswer(xhr.responseText);
      } catch {
        answer = null;
      }
      onAnswer(answer);
    };
    xhr.onerror = () => onAnswer(null);
    xhr.send();
  }

  function finish() {
    done = true;
    tail.innerHTML = config.end === 'sentence' ? renderReviewsEnd(cls) : '';
  }

  function loadMore() {
    if (loading || done) return;
    loading = true;
    var asked = generation;
    tail.innerHTML = renderReviewsProgress(cls);
    win.setTimeout(() => {
      if (asked !== generation) return;
      request(sort, offset, (answer) => {
        if (asked !== generation) return;
        loading = false;
        tail.innerHTML = '';
        if (answer === null) {
          done = true;
          return;
        }
        appendCards(list, answer.reviews);
        offset += answer.reviews.length;
        if (answer.next === null) finish();
        else fillIfShort();
      });
    }, config.batchDelayMs);
  }

  function nearBottom() {
    return panel.scrollTop + panel.clientHeight >= panel.scrollHeight - NEAR_BOTTOM_PX;
  }

  /* A laid-out panel its cards do not fill yet cannot be scrolled, so the next batch comes anyway. */
  function fillIfShort() {
    if (panel.clientHeight > 0 && panel.scrollHeight - panel.clientHeight <= NEAR_BOTTOM_PX) loadMore();
  }

  function chooseSort(next) {
    var menu = panel.querySelector('[role="menu"]');
    if (menu) closeMenu(menu);
    if (next === sort) return;
    sort = next;
    for (var chip of panel.querySelectorAll('[role="radio"]'))
      chip.setAttribute('aria-checked', String(SORTS[Number(chip.getAttribute('data-index'))] === sort));
    generation += 1;
    loading = false;
    done = false;
    offset = 0;
    list.innerHTML = '';
    panel.scrollTop = 0;
    loadMore();
  }

  function closeMenu(menu) {
    menu.remove();
    panel.querySelector('[aria-haspopup]').setAttribute('aria-expanded', 'false');
  }

  function toggleMenu(button) {
    var open = panel.querySelector('[role="menu"]');
    if (open) return closeMenu(open);
    button.parentElement.insertAdjacentHTML('beforeend', renderSortMenu(sort, cls));
    button.setAttribute('aria-expanded', 'true');
  }

  function openReviews() {
    if (panel) {
      panel.style.display = '';
      return;
    }
    var main = doc.querySelector('[role="main"]');
    main.insertAdjacentHTML('beforeend', renderReviewsPanel(config, sort));
    panel = main.lastElementChild;
    list = panel.querySelector(classSelector(cls.list));
    tail = panel.querySelector(classSelector(cls.tail));
    panel.addEventListener('scroll', () => {
      if (nearBottom()) loadMore();
    });
    loadMore();
  }

  function selectTab(tabs, chosen) {
    var index = chosen.getAttribute('data-tab-index');
    for (var tab of tabs) tab.setAttribute('aria-selected', String(tab === chosen));
    overview.style.display = index === '0' ? '' : 'none';
    if (index === '1') openReviews();
    else if (panel) panel.style.display = 'none';
  }

  function onAction(el) {
    var action = el.getAttribute('jsaction');
    var card = cardOf(el);
    if (action === 'pane.review.expandReview' && card) {
      states.get(card).expanded = true;
      redrawBody(card);
    } else if (action === 'pane.review.toggleOriginal' && card) {
      var state = states.get(card);
      state.original = !state.original;
      redrawBody(card);
    } else if (action === 'pane.reviews.sort') {
      toggleMenu(el);
    } else if (action === 'pane.reviews.sortBy') {
      chooseSort(SORTS[Number(el.getAttribute('data-index'))]);
    }
  }

  doc.addEventListener('click', (event) => {
    var el = event.target.closest('[jsaction]');
    if (el) onAction(el);
  });
  // The span "buttons" answer the keyboard like buttons do.
  doc.addEventListener('keydown', (event) => {
    var el = event.target;
    if ((event.key === 'Enter' || event.key === ' ') && el.getAttribute('role') === 'button' && el.tagName !== 'BUTTON') {
      event.preventDefault();
      el.click();
    }
  });

  if (config.signedIn) {
    var tabs = doc.querySelectorAll('[role="tab"]');
    for (var tab of tabs) tab.addEventListener('click', (event) => selectTab(tabs, event.currentTarget));
  } else {
    appendCards(overview.querySelector(classSelector(cls.overviewReviews)), config.overview);
  }
}
