// Library page: "Continue reading" from GET /api/progress, the "Recently added" shelf, one shelf per collection (admins
// edit them here) and the covers grid from GET /api/series (search, sort), each card with this user's unread count,
// progress and a "New" badge for chapters published since their last visit (POST /api/series/visit on each load).
// Nothing here asks for the whole library: the grid loads one page at a time as the reader scrolls (or presses
// "Show more"), each shelf asks for its own few series, and the collection editor searches (docs/api.md "Library").
import { el, byId, ago, fullDate, plural, toast } from './dom.js';
import { getJson, postJson, seriesPath } from './api.js';
import { startPage, showPageError } from './page.js';
import { coverBox } from './covers.js';
import { collectionEditor } from './collection-editor.js';

const SORT_KEY = 'mc.library.sort';
const STATUS_TEXT = {
  refreshing: 'Refreshing…',
  stale: 'Checking for new chapters…',
  updated: 'Updated just now',
};

const grid = byId('library-grid');
const empty = byId('library-empty');
const statusLine = byId('library-status');
const countLine = byId('library-count');
const moreButton = byId('library-more');
const sentinel = byId('library-sentinel');
const search = byId('search');
const sort = byId('sort');
/** Series per page of the grid; a refresh asks again for the pages shown, at most REFETCH a request. */
const PAGE = 60;
const REFETCH = 8 * PAGE;
const RECENT = 12;
/** Series a collection's shelf asks for at a time. */
const SHELF = 24;
/** The grid's card element per series id (reused across refreshes). */
const cards = new Map();
/** The grid's series in order: the pages loaded so far. */
let shown = [];
let total = 0;
let pagesLoaded = 0;
let moreLoading = false;
/** Titles of every series seen on this page (grid, shelves, searches), for the collection editor's labels. */
const titles = new Map();
let collections = [];
let me = null;
let loadSeq = 0;
let shelfSeq = 0;
let pollTimer = 0;
let lastScannedAt;
/** Asks the sentinel's observer to look again (set once there is one). */
let rearm = () => {};
/** Opens the collection editor on a collection (null: a new one); set at start. */
let openEditor = () => {};

startPage('library', async (user) => {
  me = user;
  const params = new URLSearchParams(location.search);
  search.value = params.get('q') || '';
  const wanted = params.get('sort') || localStorage.getItem(SORT_KEY) || 'title';
  sort.value = ['title', 'updated'].includes(wanted) ? wanted : 'title';
  let debounce = 0;
  search.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(loadLibrary, 250);
  });
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      clearTimeout(debounce);
      loadLibrary();
    }
  });
  sort.addEventListener('change', () => {
    localStorage.setItem(SORT_KEY, sort.value);
    loadLibrary();
  });
  const refresh = () => {
    loadLibrary({ quiet: true });
    loadShelves();
    loadContinue();
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
  // Coming back with the browser's Back button after reading: show the new position.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) refresh();
  });
  moreButton.addEventListener('click', () => loadMore({ focus: true }));
  if ('IntersectionObserver' in window) {
    // The next page is asked for a little before the end of the grid comes into view.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    }, { rootMargin: '0px 0px 600px 0px' });
    observer.observe(sentinel);
    rearm = () => {
      // Observing again reports the sentinel's current state: still in view after a page (a tall screen) loads the next.
      observer.unobserve(sentinel);
      observer.observe(sentinel);
    };
  }
  openEditor = collectionEditor({ listPath, remember, titleOf: (id) => titles.get(id), loaded: () => shown,
    collections: () => collections, reload: loadCollections });
  byId('collection-new').hidden = !isAdmin();
  byId('collection-new').addEventListener('click', () => openEditor(null));
  showSkeleton();
  // This load is a library visit: it settles which chapters count as new (the answer itself is not needed).
  await postJson('/api/series/visit').catch((e) => console.warn('library visit not recorded:', e.message));
  await Promise.all([loadLibrary(), loadContinue(), loadCollections()]);
});

const isAdmin = () => !!(me && me.role === 'admin');

/** The list's address: the search and sort of the page, and a page of `size` series. */
function listPath({ q = search.value.trim(), order = sort.value, page, size, collection } = {}) {
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (order && order !== 'title') query.set('sort', order);
  if (collection) query.set('collection', collection);
  query.set('page', String(page));
  query.set('size', String(size));
  return `/api/series?${query}`;
}

function remember(series) {
  for (const s of series) titles.set(s.id, s.title || s.id);
  return series;
}

/**
 * The grid's first `pages` pages of PAGE series, in as few requests as REFETCH allows; the answer of the last request
 * with the series of all of them.
 */
async function fetchPages(pages) {
  const wanted = pages * PAGE;
  const size = Math.min(wanted, REFETCH);
  const requests = Math.ceil(wanted / size);
  const answers = await Promise.all(Array.from({ length: requests }, (_, i) => getJson(listPath({ page: i + 1, size }))));
  const series = answers.flatMap((a) => a.series || []).slice(0, wanted);
  return { ...answers[answers.length - 1], series };
}

/**
 * GET /api/series with the search and sort: the first page, or (quiet: a refresh) again the pages already shown, so
 * the cards and the scroll position stay; only the newest answer is drawn.
 */
async function loadLibrary({ quiet = false } = {}) {
  const seq = ++loadSeq;
  clearTimeout(pollTimer);
  const q = search.value.trim();
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (sort.value !== 'title') query.set('sort', sort.value);
  history.replaceState(null, '', query.toString() ? `/?${query}` : '/');
  const pages = quiet ? Math.max(1, pagesLoaded) : 1;
  let answer;
  try {
    answer = await fetchPages(pages);
  } catch (e) {
    if (seq === loadSeq && !quiet) showPageError(e);
    return;
  }
  if (seq !== loadSeq) return;
  const error = document.getElementById('page-error');
  if (error) error.hidden = true;
  const firstScan = !answer.scannedAt && ['refreshing', 'stale'].includes(answer.libraryStatus);
  if (firstScan && !(answer.series || []).length) {
    statusLine.textContent = 'Looking for titles…';
  } else {
    shown = remember(answer.series || []);
    total = Number(answer.total) || shown.length;
    pagesLoaded = pages;
    drawGrid(shown, q);
    drawStatus(answer);
    // The shelves follow the library's changes: a first scan's growing list, a completed scan, a publication.
    if (!quiet || answer.partial || answer.scannedAt !== lastScannedAt || answer.libraryStatus === 'updated') {
      loadShelves();
    }
    lastScannedAt = answer.scannedAt;
  }
  if (answer.libraryStatus === 'refreshing' || answer.libraryStatus === 'stale') {
    pollTimer = setTimeout(() => loadLibrary({ quiet: true }), answer.scannedAt ? 3000 : 1000);
  }
}

/** The next page of the grid, appended below the cards shown (none twice); focus: to its first card (the button). */
async function loadMore({ focus = false } = {}) {
  if (moreLoading || pagesLoaded === 0 || shown.length >= total) return;
  const seq = loadSeq;
  const from = pagesLoaded;
  moreLoading = true;
  moreButton.disabled = true;
  let answer;
  try {
    answer = await getJson(listPath({ page: from + 1, size: PAGE }));
  } catch (e) {
    if (!e.redirecting) toast(`More titles could not be loaded: ${e.message}`, { error: true });
    return;
  } finally {
    moreLoading = false;
    moreButton.disabled = false;
  }
  // A new search, sort or refresh drew the grid meanwhile: this page belongs to an older list.
  if (seq !== loadSeq || pagesLoaded !== from) return;
  pagesLoaded = from + 1;
  total = Number(answer.total) || total;
  const fresh = remember(answer.series || []).filter((s) => !cards.has(s.id));
  shown = shown.concat(fresh);
  const nodes = fresh.map(gridCard);
  grid.append(...nodes);
  drawMore();
  if (focus && nodes.length) nodes[0].querySelector('a').focus();
  rearm();
}

function drawStatus(answer) {
  const status = answer.libraryStatus;
  statusLine.classList.toggle('error', status === 'error');
  if (status === 'error') {
    statusLine.textContent = 'The last library scan failed' + (answer.error ? `: ${answer.error}` : '.');
  } else {
    statusLine.textContent = STATUS_TEXT[status] || '';
  }
  statusLine.title = answer.scannedAt ? `Last scanned ${fullDate(answer.scannedAt)}` : '';
}

/** "Showing 60 of 150 titles" and the "Show more" button while there are more. */
function drawMore() {
  const more = shown.length < total;
  countLine.textContent = total === 0 ? ''
    : more ? `Showing ${shown.length} of ${total} titles` : total === 1 ? '1 title' : `All ${total} titles`;
  moreButton.hidden = !more;
  sentinel.hidden = !more;
}

function showSkeleton() {
  // Placeholders only: they are not `.series-card`s, which stand for real series.
  grid.replaceChildren(...Array.from({ length: 6 }, () => el('div', { class: 'skeleton', 'aria-hidden': 'true' },
    el('div', { class: 'cover' }), el('div', { class: 'title', text: 'Loading title' }),
    el('p', { class: 'meta', text: 'chapters' }))));
}

/** The grid's card of a series, made once and updated with its latest counts. */
function gridCard(s) {
  let card = cards.get(s.id);
  if (!card) {
    card = makeCard(s);
    cards.set(s.id, card);
  }
  updateCard(card, s);
  return card;
}

/** Draws the cards, reusing the elements of series already shown (a refresh keeps the scroll position). */
function drawGrid(series, q) {
  grid.setAttribute('aria-busy', 'false');
  const seen = new Set(series.map((s) => s.id));
  for (const id of [...cards.keys()]) if (!seen.has(id)) cards.delete(id);
  grid.replaceChildren(...series.map(gridCard));
  drawMore();
  drawEmpty(total === 0 && series.length === 0, q);
  rearm();
}

function makeCard(s) {
  return el('article', { class: 'series-card', 'data-series-id': s.id, 'data-series': s.id },
    el('a', { class: 'series-link', href: `/series.html?id=${encodeURIComponent(s.id)}` },
      coverBox(s.id, s.title),
      el('h3', { class: 'title' }),
      el('p', { class: 'meta' }),
      el('div', { class: 'progress-bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100' },
        el('span'))));
}

function updateCard(card, s) {
  const chapters = s.chapters || 0;
  const unread = Number(s.unread) || 0;
  const fresh = Number(s.newSince) || 0;
  const read = Number(s.read) || 0;
  card.querySelector('.title').textContent = s.title || s.id;
  const meta = card.querySelector('.meta');
  const updated = ago(s.updatedAt);
  meta.textContent = plural(chapters, 'chapter') + (updated ? ` · ${updated}` : '');
  meta.title = s.updatedAt ? `Updated ${fullDate(s.updatedAt)}` : '';
  const cover = card.querySelector('.cover');
  let count = cover.querySelector('.unread-count');
  if (unread > 0) {
    if (!count) {
      count = el('span', { class: 'unread-count' });
      cover.append(count);
    }
    count.textContent = String(unread);
    count.title = `${unread} unread`;
  } else if (count) {
    count.remove();
  }
  let badge = cover.querySelector('.new-badge');
  if (fresh > 0) {
    if (!badge) {
      badge = el('span', { class: 'new-badge', text: 'New' });
      cover.append(badge);
    }
    badge.title = `${plural(fresh, 'new chapter')} since your last visit`;
  } else if (badge) {
    badge.remove();
  }
  const percent = chapters ? Math.round((100 * read) / chapters) : 0;
  const bar = card.querySelector('.progress-bar');
  bar.setAttribute('aria-valuenow', String(percent));
  bar.setAttribute('aria-label', `${read} of ${chapters} read`);
  bar.title = `${read} of ${chapters} read`;
  bar.firstChild.style.width = `${percent}%`;
}

/** A card for a shelf (never reused: a series may stand on several shelves). */
function shelfCard(s) {
  const card = makeCard(s);
  // `data-series-id` marks the grid's one card per series; a shelf's copy has only `data-series`.
  card.removeAttribute('data-series-id');
  updateCard(card, s);
  return card;
}

/**
 * "Recently added" (GET /api/series?sort=added) and one shelf per collection (?collection=), each asking for its own
 * few series; hidden while searching.
 */
async function loadShelves() {
  const seq = ++shelfSeq;
  const q = search.value.trim();
  byId('recent-shelf').hidden = byId('recent-shelf').hidden || !!q;
  byId('collection-shelves').hidden = !!q;
  if (q) return;
  let recent = [];
  let shelves;
  try {
    [recent, shelves] = await Promise.all([
      getJson(listPath({ q: '', order: 'added', page: 1, size: RECENT }))
        .then((a) => remember(a.series || []).filter((s) => s.addedAt)),
      Promise.all(collections.map((c) => getJson(listPath({ q: '', order: '', collection: c.id, page: 1, size: SHELF }))
        .then((a) => ({ collection: c, series: remember(a.series || []), total: Number(a.total) || 0 }))
        .catch((e) => {
          if (e.status !== 404) console.warn(`collection ${c.id} unavailable:`, e.message);
          return { collection: c, series: [], total: 0 };
        }))),
    ]);
  } catch (e) {
    if (!e.redirecting) console.warn('shelves unavailable:', e.message);
    return;
  }
  if (seq !== shelfSeq || search.value.trim()) return;
  byId('recent-shelf').hidden = recent.length === 0;
  byId('recent-list').replaceChildren(...recent.map(shelfCard));
  byId('collection-shelves').replaceChildren(...shelves.map(collectionShelf));
}

/** A collection's shelf: its first SHELF series, then "Show more" for the next ones. */
function collectionShelf({ collection: c, series, total: count }) {
  const head = el('div', { class: 'shelf-head' }, el('h2', { text: c.name }),
    el('span', { class: 'quiet', text: plural(count, 'title') }));
  if (isAdmin()) {
    head.append(el('button', { type: 'button', class: 'small edit-collection', text: 'Edit',
      'aria-label': `Edit the collection ${c.name}`, onclick: () => openEditor(c) }));
  }
  const section = el('section', { class: 'shelf', 'data-shelf': `collection-${c.id}`, 'data-collection': c.id }, head);
  if (!series.length) {
    section.append(el('p', { class: 'quiet', text: 'No titles yet.' }));
    return section;
  }
  const row = el('div', { class: 'shelf-row' }, series.map(shelfCard));
  section.append(row);
  let page = 1;
  let loaded = series.length;
  if (loaded < count) {
    const more = el('button', { type: 'button', class: 'small shelf-more', text: 'Show more',
      'aria-label': `Show more of ${c.name}` });
    more.addEventListener('click', async () => {
      more.disabled = true;
      try {
        const answer = await getJson(listPath({ q: '', order: '', collection: c.id, page: page + 1, size: SHELF }));
        page++;
        const have = new Set([...row.querySelectorAll('[data-series]')].map((n) => n.dataset.series));
        const next = remember(answer.series || []).filter((s) => !have.has(s.id));
        loaded += next.length;
        const nodes = next.map(shelfCard);
        more.before(...nodes);
        if (nodes.length) nodes[0].querySelector('a').focus();
        more.hidden = loaded >= (Number(answer.total) || 0) || !next.length;
      } catch (e) {
        if (!e.redirecting) toast(`More titles could not be loaded: ${e.message}`, { error: true });
      } finally {
        more.disabled = false;
      }
    });
    row.append(more);
  }
  return section;
}

async function loadCollections() {
  try {
    const catalog = await getJson('/api/catalog');
    collections = (catalog && catalog.collections) || [];
  } catch (e) {
    if (!e.redirecting) console.warn('collections unavailable:', e.message);
    collections = [];
  }
  await loadShelves();
}

function drawEmpty(isEmpty, q) {
  empty.hidden = !isEmpty;
  if (!isEmpty) return;
  if (q) {
    empty.replaceChildren(el('h2', { text: 'Nothing matches' }),
      el('p', {}, 'No title contains “', q, '”. Try a shorter search.'));
    return;
  }
  const parts = [el('h2', { text: 'Your library is empty' }),
    el('p', {}, 'Titles appear here as soon as the scraper has downloaded a chapter into ',
      el('code', { text: 'data/library/' }), '.')];
  if (me && me.role === 'admin') {
    parts.push(el('p', {}, 'Queue a title with ', el('code', { text: 'POST /api/admin/jobs' }),
      ' (see docs/api.md), for example:'),
    el('pre', { text: 'curl -s -H "Authorization: Bearer $MANGACIRCUS_ADMIN_TOKEN" \\\n'
      + '     -H \'Content-Type: application/json\' \\\n'
      + '     -d \'{"source":"<source>","title":"<title id or URL>","autoConfirm":true}\' \\\n'
      + `     ${location.origin}/api/admin/jobs` }),
    el('p', {}, 'To try it out, start MangaCircus with ', el('code', { text: '--demo' }),
      ': it downloads a demo title within a minute.'));
  } else {
    parts.push(el('p', { text: 'Ask the administrator of this MangaCircus to add some titles.' }));
  }
  empty.replaceChildren(...parts);
}

/** "Continue reading": the saved positions, newest first. */
async function loadContinue() {
  let answer;
  try {
    answer = await getJson('/api/progress');
  } catch (e) {
    if (!e.redirecting && e.status !== 404) console.warn('continue reading unavailable:', e.message);
    return;
  }
  const list = (answer && answer.progress) || [];
  const section = byId('continue');
  section.hidden = list.length === 0;
  byId('continue-list').replaceChildren(...list.slice(0, 12).map(continueCard));
}

function continueCard(p) {
  const query = new URLSearchParams({ series: p.series, chapter: p.chapter, page: String(p.page || 1) });
  const pages = Number(p.pages) || 0;
  const percent = pages ? Math.min(100, Math.round((Number(p.page) / pages) * 100)) : 0;
  const chapter = p.chapterNumber != null && p.chapterNumber !== '' ? `Chapter ${p.chapterNumber}` : p.chapter;
  const bar = el('div', { class: 'progress-bar', 'aria-hidden': 'true' }, el('span'));
  bar.firstChild.style.width = `${percent}%`;
  return el('a', { class: 'continue-card', href: `/read.html?${query}`, 'data-series-id': p.series },
    el('div', { class: 'thumb' }, thumb(p.series)),
    el('div', { class: 'info' },
      el('span', { class: 'title', text: p.seriesTitle || p.series }),
      el('span', { class: 'where', text: `${chapter} · page ${p.page}${pages ? ` of ${pages}` : ''}` }),
      bar,
      el('span', { class: 'resume', text: p.updatedAt ? `Resume · ${ago(p.updatedAt)}` : 'Resume' })));
}

function thumb(seriesId) {
  const img = el('img', { src: seriesPath(seriesId, 'cover'), alt: '', loading: 'lazy', decoding: 'async' });
  img.addEventListener('error', () => { img.hidden = true; }, { once: true });
  return img;
}
