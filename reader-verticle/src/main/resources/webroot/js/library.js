// Library page: "Continue reading" from GET /api/progress, the "Recently added" shelf, one shelf per collection (admins
// edit them here) and the covers grid from GET /api/series (search, sort), each card with this user's unread count,
// progress and a "New" badge for chapters published since their last visit (POST /api/series/visit on each load).
import { el, byId, ago, fullDate, plural, toast } from './dom.js';
import { getJson, postJson, putJson, request, seriesPath } from './api.js';
import { startPage, showPageError } from './page.js';
import { coverBox } from './covers.js';

const SORT_KEY = 'mc.library.sort';
const STATUS_TEXT = {
  refreshing: 'Refreshing…',
  stale: 'Checking for new chapters…',
  updated: 'Updated just now',
};

const grid = byId('library-grid');
const empty = byId('library-empty');
const statusLine = byId('library-status');
const search = byId('search');
const sort = byId('sort');
const RECENT = 12;
const cards = new Map();
/** Every series of the last unsearched answer, by id (the shelves draw from it). */
let allSeries = new Map();
let collections = [];
let editing = null;
let me = null;
let loadSeq = 0;
let pollTimer = 0;

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
    loadContinue();
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
  // Coming back with the browser's Back button after reading: show the new position.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) refresh();
  });
  byId('collection-new').hidden = !isAdmin();
  byId('collection-new').addEventListener('click', () => openEditor(null));
  byId('collection-cancel').addEventListener('click', closeEditor);
  byId('collection-form').addEventListener('submit', saveCollection);
  byId('collection-delete').addEventListener('click', deleteCollection);
  showSkeleton();
  // This load is a library visit: it settles which chapters count as new (the answer itself is not needed).
  await postJson('/api/series/visit').catch((e) => console.warn('library visit not recorded:', e.message));
  await Promise.all([loadLibrary(), loadContinue(), loadCollections()]);
});

const isAdmin = () => !!(me && me.role === 'admin');

/** GET /api/series with the search and sort; only the newest answer is drawn. */
async function loadLibrary({ quiet = false } = {}) {
  const seq = ++loadSeq;
  clearTimeout(pollTimer);
  const q = search.value.trim();
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (sort.value !== 'title') query.set('sort', sort.value);
  history.replaceState(null, '', query.toString() ? `/?${query}` : '/');
  let answer;
  try {
    answer = await getJson(`/api/series${query.toString() ? `?${query}` : ''}`);
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
    if (!q) allSeries = new Map((answer.series || []).map((x) => [x.id, x]));
    drawGrid(answer.series || [], q);
    drawShelves(q);
    drawStatus(answer);
  }
  if (answer.libraryStatus === 'refreshing' || answer.libraryStatus === 'stale') {
    pollTimer = setTimeout(() => loadLibrary({ quiet: true }), answer.scannedAt ? 3000 : 1000);
  }
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

function showSkeleton() {
  // Placeholders only: they are not `.series-card`s, which stand for real series.
  grid.replaceChildren(...Array.from({ length: 6 }, () => el('div', { class: 'skeleton', 'aria-hidden': 'true' },
    el('div', { class: 'cover' }), el('div', { class: 'title', text: 'Loading title' }),
    el('p', { class: 'meta', text: 'chapters' }))));
}

/** Draws the cards, reusing the elements of series already shown. */
function drawGrid(series, q) {
  grid.setAttribute('aria-busy', 'false');
  const seen = new Set();
  const nodes = series.map((s) => {
    seen.add(s.id);
    let card = cards.get(s.id);
    if (!card) {
      card = makeCard(s);
      cards.set(s.id, card);
    }
    updateCard(card, s);
    return card;
  });
  for (const id of [...cards.keys()]) if (!seen.has(id)) cards.delete(id);
  grid.replaceChildren(...nodes);
  drawEmpty(series.length === 0, q);
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
  card.querySelector('.series-link').setAttribute('aria-label', `${s.title || s.id}, ${plural(chapters, 'chapter')}`
    + (unread ? `, ${unread} unread` : '') + (fresh ? `, ${fresh} new` : ''));
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

/** "Recently added" and one shelf per collection; hidden while searching. */
function drawShelves(q) {
  const recent = [...allSeries.values()].filter((s) => s.addedAt)
    .sort((a, b) => Date.parse(b.addedAt) - Date.parse(a.addedAt)).slice(0, RECENT);
  byId('recent-shelf').hidden = !!q || recent.length === 0;
  byId('recent-list').replaceChildren(...recent.map(shelfCard));
  const shelves = collections.map((c) => {
    const members = (c.series || []).map((id) => allSeries.get(id)).filter(Boolean);
    const head = el('div', { class: 'shelf-head' }, el('h2', { text: c.name }),
      el('span', { class: 'quiet', text: plural(members.length, 'title') }));
    if (isAdmin()) {
      head.append(el('button', { type: 'button', class: 'small edit-collection', text: 'Edit',
        'aria-label': `Edit the collection ${c.name}`, onclick: () => openEditor(c) }));
    }
    return el('section', { class: 'shelf', 'data-shelf': `collection-${c.id}`, 'data-collection': c.id }, head,
      members.length ? el('div', { class: 'shelf-row' }, members.map(shelfCard))
        : el('p', { class: 'quiet', text: 'No titles yet.' }));
  });
  const box = byId('collection-shelves');
  box.hidden = !!q;
  box.replaceChildren(...shelves);
}

async function loadCollections() {
  try {
    const catalog = await getJson('/api/catalog');
    collections = (catalog && catalog.collections) || [];
  } catch (e) {
    if (!e.redirecting) console.warn('collections unavailable:', e.message);
    collections = [];
  }
  drawShelves(search.value.trim());
}

/** Opens the collection form: a new collection (null) or an existing one to rename, fill or delete. */
function openEditor(collection) {
  editing = collection;
  byId('collection-editor-heading').textContent = collection ? `Edit “${collection.name}”` : 'New collection';
  byId('collection-name').value = collection ? collection.name : '';
  byId('collection-delete').hidden = !collection;
  byId('collection-error').textContent = '';
  const chosen = new Set(collection ? collection.series : []);
  const titles = [...allSeries.values()].sort((a, b) => (a.title || a.id).localeCompare(b.title || b.id));
  byId('collection-series').replaceChildren(...titles.map((s) => el('label', {},
    el('input', { type: 'checkbox', value: s.id, checked: chosen.has(s.id) }),
    el('span', { text: s.title || s.id, title: s.title || s.id }))));
  byId('collection-editor').hidden = false;
  byId('collection-name').focus();
}

function closeEditor() {
  editing = null;
  byId('collection-editor').hidden = true;
}

/** A collection id from its name: letters, digits and dashes (the catalog's rule), unique among the collections. */
function newId(name) {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)
    || 'collection';
  let id = base;
  for (let i = 2; collections.some((c) => c.id === id); i++) id = `${base}-${i}`;
  return id;
}

async function saveCollection(event) {
  event.preventDefault();
  const name = byId('collection-name').value.trim();
  if (!name) {
    byId('collection-error').textContent = 'Give the collection a name.';
    return;
  }
  const series = [...byId('collection-series').querySelectorAll('input:checked')].map((i) => i.value);
  const id = editing ? editing.id : newId(name);
  try {
    await putJson(`/api/admin/catalog/collections/${encodeURIComponent(id)}`, { name, series });
    toast(`Saved “${name}”`);
    closeEditor();
    await loadCollections();
  } catch (e) {
    if (!e.redirecting) byId('collection-error').textContent = e.message;
  }
}

async function deleteCollection() {
  if (!editing || !window.confirm(`Delete the collection “${editing.name}”? Its titles stay in the library.`)) return;
  try {
    await request('DELETE', `/api/admin/catalog/collections/${encodeURIComponent(editing.id)}`);
    toast(`Deleted “${editing.name}”`);
    closeEditor();
    await loadCollections();
  } catch (e) {
    if (!e.redirecting) byId('collection-error').textContent = e.message;
  }
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
