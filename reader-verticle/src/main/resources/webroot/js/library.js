// Library page: "Continue reading" from GET /api/progress and the covers grid from GET /api/series (search, sort).
import { el, byId, ago, fullDate, plural } from './dom.js';
import { getJson, seriesPath } from './api.js';
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
const cards = new Map();
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
  showSkeleton();
  await Promise.all([loadLibrary(), loadContinue()]);
});

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
    drawGrid(answer.series || [], q);
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
  return el('article', { class: 'series-card', 'data-series-id': s.id },
    el('a', { class: 'series-link', href: `/series.html?id=${encodeURIComponent(s.id)}` },
      coverBox(s.id, s.title),
      el('h3', { class: 'title' }),
      el('p', { class: 'meta' })));
}

function updateCard(card, s) {
  card.querySelector('.title').textContent = s.title || s.id;
  card.querySelector('.series-link').setAttribute('aria-label', `${s.title || s.id}, ${plural(s.chapters || 0, 'chapter')}`);
  const meta = card.querySelector('.meta');
  const updated = ago(s.updatedAt);
  meta.textContent = plural(s.chapters || 0, 'chapter') + (updated ? ` · ${updated}` : '');
  meta.title = s.updatedAt ? `Updated ${fullDate(s.updatedAt)}` : '';
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
