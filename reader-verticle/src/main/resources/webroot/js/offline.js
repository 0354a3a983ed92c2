// "Download for offline" on the series page: per chapter a button and its state (not stored / storing n/m / ready /
// stale), per series a button for every chapter and the room its stored chapters take; Remove takes them away.
// Storing puts the chapter's page images in Cache Storage, its details and the answers needed to open it offline
// beside them, and asks the service worker to keep the reader's own pages and scripts (sw.js serves them all).
import { el, byId, toast, chapterName, plural } from './dom.js';
import { loadSession, seriesPath } from './api.js';
import { PAGES_CACHE, DATA_CACHE, readIndex, writeIndex, formatBytes, removeChapter } from './offline-index.js';

const seriesId = new URLSearchParams(location.search).get('id') || '';
const list = byId('chapter-list');
const busy = new Map();
let user = '';
let info = null;

if (list && 'caches' in window && 'serviceWorker' in navigator) start();

async function start() {
  try {
    user = (await loadSession()).username;
  } catch (e) {
    return; // series.js shows why the page cannot start
  }
  const seriesButton = el('button', { id: 'offline-series', type: 'button', text: 'Download series for offline' });
  const figure = el('span', { id: 'offline-figure', class: 'quiet', role: 'status' });
  seriesButton.addEventListener('click', () => storeSeries(seriesButton));
  document.querySelector('#series-hero .actions').append(seriesButton, figure);
  new MutationObserver(() => decorate()).observe(list, { childList: true });
  info = await fetch(seriesPath(seriesId), { headers: { Accept: 'application/json' } }).then((r) => r.json())
    .catch(() => null);
  decorate();
}

/** Gives each chapter row its offline button and state. */
async function decorate() {
  for (const row of list.querySelectorAll('.chapter-row[data-chapter-id]')) {
    if (!row.querySelector('.offline-chapter')) {
      const button = el('button', { type: 'button', class: 'small offline-chapter' });
      button.addEventListener('click', () => (stateOf(row) === 'ready' || stateOf(row) === 'stale'
        ? remove(row.dataset.series, row.dataset.chapterId) : storeChapter(row.dataset.series, row.dataset.chapterId)));
      row.querySelector('.row-actions').prepend(el('span', { class: 'offline-state quiet' }), button);
    }
  }
  await refresh();
}

function stateOf(row) {
  return row.dataset.offline || 'none';
}

/** Draws every row's state and the series' figure from the index and the cache. */
async function refresh() {
  const stored = readIndex(user).series;
  const cache = await caches.open(PAGES_CACHE);
  let bytes = 0;
  let count = 0;
  for (const row of list.querySelectorAll('.chapter-row[data-chapter-id]')) {
    const series = row.dataset.series;
    const id = row.dataset.chapterId;
    const entry = stored[series] && stored[series].chapters[id];
    let state = 'none';
    if (busy.has(`${series}/${id}`)) state = 'storing';
    else if (entry) {
      bytes += entry.bytes || 0;
      count += 1;
      const now = info && (info.chapters || []).find((c) => c.id === id);
      const whole = await cache.match(entry.urls[entry.urls.length - 1]);
      state = !whole || (now && Number(now.pages) !== entry.urls.length) ? 'stale' : 'ready';
    }
    draw(row, state, busy.get(`${series}/${id}`));
  }
  byId('offline-figure').textContent = count ? `Offline: ${plural(count, 'chapter')}, ${formatBytes(bytes)}` : '';
  list.closest('main').querySelector('#offline-series').disabled = busy.size > 0;
}

function draw(row, state, progress) {
  row.dataset.offline = state;
  const name = row.querySelector('.chapter-name').textContent;
  const text = { none: 'Not stored', storing: `Storing ${progress ? `${progress.n}/${progress.m}` : '…'}`,
    ready: 'Ready offline', stale: 'Stale: changed since stored' }[state];
  row.querySelector('.offline-state').textContent = text;
  const button = row.querySelector('.offline-chapter');
  button.textContent = state === 'ready' || state === 'stale' ? 'Remove' : 'Download for offline';
  button.setAttribute('aria-label', `${button.textContent}: ${name}`);
  button.disabled = state === 'storing';
}

/** Asks the service worker to keep the reader's assets; resolves when done (or at once without a worker). */
async function storeAssets() {
  const registration = await Promise.race([navigator.serviceWorker.ready,
    new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (!registration || !registration.active) throw new Error('offline storage needs the service worker, which is not running');
  const channel = new MessageChannel();
  const answered = new Promise((resolve) => { channel.port1.onmessage = resolve; });
  registration.active.postMessage({ type: 'store-assets' }, [channel.port2]);
  await answered;
}

/** Keeps an answer of the API under its own URL in the data cache; returns it. */
async function keepAnswer(cache, path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  await cache.put(path, response.clone());
  return response;
}

async function storeChapter(series, chapterId) {
  const key = `${series}/${chapterId}`;
  if (busy.has(key)) return;
  busy.set(key, { n: 0, m: 0 });
  await refresh();
  try {
    await storeAssets();
    const pages = await caches.open(PAGES_CACHE);
    const data = await caches.open(DATA_CACHE);
    const chapter = await (await keepAnswer(data, seriesPath(series, 'chapters', chapterId))).json();
    await keepAnswer(data, '/api/me');
    await keepAnswer(data, seriesPath(series));
    if (series !== seriesId) await keepAnswer(data, seriesPath(seriesId));
    const urls = Array.isArray(chapter.pages) ? chapter.pages : [];
    let bytes = 0;
    for (let i = 0; i < urls.length; i++) {
      busy.set(key, { n: i, m: urls.length });
      await refresh();
      const response = await fetch(urls[i]);
      if (!response.ok) throw new Error(`page ${i + 1} answered ${response.status}`);
      bytes += (await response.clone().blob()).size;
      await pages.put(urls[i], response);
    }
    await fetch(seriesPath(series, 'cover')).then((r) => (r.ok ? data.put(seriesPath(series, 'cover'), r) : null))
      .catch(() => null);
    const index = readIndex(user);
    const entry = index.series[series] || { title: (chapter.series && chapter.series.title) || series, chapters: {} };
    entry.chapters[chapterId] = { name: chapterName(chapter), urls, bytes, storedAt: new Date().toISOString() };
    index.series[series] = entry;
    writeIndex(index);
  } catch (e) {
    toast(`${chapterId} was not stored: ${e.message}`, { error: true });
  } finally {
    busy.delete(key);
    await refresh();
  }
}

async function storeSeries(button) {
  button.disabled = true;
  for (const row of [...list.querySelectorAll('.chapter-row[data-chapter-id]')]) {
    if (stateOf(row) !== 'ready') await storeChapter(row.dataset.series, row.dataset.chapterId);
  }
  button.disabled = false;
}

async function remove(series, chapterId) {
  await removeChapter(user, series, chapterId);
  await refresh();
}
