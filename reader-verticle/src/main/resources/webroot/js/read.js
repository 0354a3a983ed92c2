// Reader page: opens a chapter, turns pages in three modes, remembers mode and fit, saves the reading position.
import { el, byId, toast, chapterLabel, chapterName } from './dom.js';
import { getJson, loadSession, seriesPath } from './api.js';
import { loadPrefs, savePrefs, isMode, isFit } from './reader/prefs.js';
import { ProgressSaver } from './reader/progress.js';
import { Preloader } from './reader/preload.js';
import { PageView } from './reader/view.js';
import { bindInput } from './reader/input.js';

const params = new URLSearchParams(location.search);
const seriesId = params.get('series') || '';
const reader = byId('reader');
const stage = byId('stage');
const indicator = byId('page-indicator');
const slider = byId('page-slider');
const modeSelect = byId('mode-select');
const fitSelect = byId('fit-select');
const chapterSelect = byId('chapter-select');
const prevButton = byId('prev-chapter');
const nextButton = byId('next-chapter');
const backLink = byId('back-link');

const state = { chapter: null, page: 0, mode: 'ltr', fit: 'width', loading: false, seriesTitle: '' };
const chapterCache = new Map();
const preloader = new Preloader();
const view = new PageView(stage, { onStripPage: (page) => setPage(page, { fromView: true }) });
let progress = null;
let openSeq = 0;

const seriesUrl = () => `/series.html?id=${encodeURIComponent(seriesId)}`;
const pageCount = () => (state.chapter ? state.chapter.pages.length : 0);

main();

async function main() {
  try {
    await loadSession();
  } catch (e) {
    if (!e.redirecting) showMessage('The reader cannot start', e.message);
    return;
  }
  if (!seriesId) {
    showMessage('No series chosen', 'Open a series from the library to read it.');
    return;
  }
  backLink.href = seriesUrl();
  const prefs = loadPrefs(seriesId);
  applyPrefs(prefs.mode, prefs.fit);
  progress = new ProgressSaver(seriesId, {
    onSaved: ({ chapter, page }) => {
      if (state.chapter && chapter === state.chapter.id) reader.dataset.savedPage = String(page);
    },
    onError: (e) => {
      if (!e.redirecting) toast(`Your place was not saved: ${e.message}`, { error: true });
    },
  });
  bindControls();
  bindInput(stage, () => state.mode, {
    forward, backward, first: () => setPage(1), last: () => setPage(pageCount()), back: leave,
    toggleBars: () => reader.classList.toggle('bars-hidden'),
    scroll: (fraction) => view.scrollByFraction(fraction),
  });
  window.addEventListener('pagehide', () => progress.flush({ now: true }));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') progress.flush({ now: true });
  });

  const seriesInfo = getJson(seriesPath(seriesId)).catch((e) => {
    if (!e.redirecting) console.warn('series details unavailable:', e.message);
    return null;
  });
  seriesInfo.then((info) => info && drawChapterSelect(info));

  let chapterId = params.get('chapter');
  const pageParam = Number.parseInt(params.get('page') || '', 10);
  let start = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : null;
  if (!chapterId) {
    const info = await seriesInfo;
    const chapters = (info && info.chapters) || [];
    if (!chapters.length) {
      showMessage('Nothing to read yet', 'This series has no chapters.', true);
      return;
    }
    const saved = info.progress && chapters.find((c) => c.id === info.progress.chapter);
    chapterId = saved ? saved.id : chapters[0].id;
    if (saved && start == null) start = info.progress.page;
  }
  await openChapter(chapterId, start, { first: true });
}

function applyPrefs(mode, fit) {
  state.mode = isMode(mode) ? mode : 'ltr';
  state.fit = isFit(fit) ? fit : 'width';
  reader.dataset.mode = state.mode;
  reader.dataset.fit = state.fit;
  modeSelect.value = state.mode;
  fitSelect.value = state.fit;
  slider.dir = state.mode === 'rtl' ? 'rtl' : 'ltr';
}

function bindControls() {
  modeSelect.addEventListener('change', () => {
    modeSelect.blur();
    applyPrefs(modeSelect.value, state.fit);
    savePrefs(seriesId, { mode: state.mode, fit: state.fit });
    if (state.chapter) view.render(state.chapter.pages, state.mode, state.page, endOfChapter(state.chapter));
  });
  fitSelect.addEventListener('change', () => {
    fitSelect.blur();
    applyPrefs(state.mode, fitSelect.value);
    savePrefs(seriesId, { mode: state.mode, fit: state.fit });
    if (state.chapter) view.show(state.page);
  });
  chapterSelect.addEventListener('change', () => {
    chapterSelect.blur();
    if (state.chapter && chapterSelect.value !== state.chapter.id) openChapter(chapterSelect.value, null, { announce: true });
  });
  prevButton.addEventListener('click', () => {
    prevButton.blur();
    if (state.chapter && state.chapter.previous) openChapter(state.chapter.previous, 1, { announce: true });
  });
  nextButton.addEventListener('click', () => {
    nextButton.blur();
    if (state.chapter && state.chapter.next) openChapter(state.chapter.next, 1, { announce: true });
  });
  slider.addEventListener('input', () => {
    indicator.textContent = `${slider.value} / ${pageCount()}`;
  });
  slider.addEventListener('change', () => {
    slider.blur();
    setPage(Number(slider.value));
  });
  backLink.addEventListener('click', (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    leave();
  });
}

/** Back to the series page once the position is saved (or after a short wait). */
async function leave() {
  if (progress) await progress.flushWithin(800);
  location.assign(seriesUrl());
}

/**
 * Opens a chapter at `start`: a page number, 'last', or null for the saved page (else the first).
 * A chapter change first sends the position still waiting, so reaching a last page marks that chapter read.
 */
async function openChapter(chapterId, start, { first = false, announce = false } = {}) {
  const seq = ++openSeq;
  state.loading = true;
  reader.setAttribute('aria-busy', 'true');
  if (state.chapter && state.chapter.id !== chapterId) progress.flush();
  let chapter;
  try {
    chapter = await getJson(seriesPath(seriesId, 'chapters', chapterId));
  } catch (e) {
    if (seq !== openSeq) return;
    state.loading = false;
    reader.removeAttribute('aria-busy');
    if (e.redirecting) return;
    if (first) showMessage('This chapter cannot be opened', e.message, true);
    else toast(e.message, { error: true });
    return;
  }
  if (seq !== openSeq) return;
  state.loading = false;
  reader.removeAttribute('aria-busy');
  chapter.pages = Array.isArray(chapter.pages) ? chapter.pages : [];
  chapterCache.set(chapter.id, Promise.resolve(chapter));
  if (!chapter.pages.length) {
    showMessage('This chapter has no pages', chapterLabel(chapter), true);
    return;
  }
  state.chapter = chapter;
  if (chapter.series && chapter.series.title) state.seriesTitle = chapter.series.title;
  const count = chapter.pages.length;
  const wanted = start === 'last' ? count : (start || chapter.savedPage || 1);
  const page = Math.min(Math.max(1, Number(wanted) || 1), count);

  reader.dataset.chapter = chapter.id;
  reader.dataset.pages = String(count);
  if (chapter.savedPage) {
    reader.dataset.savedPage = String(chapter.savedPage);
    progress.known(chapter.id, chapter.savedPage);
  } else {
    delete reader.dataset.savedPage;
  }
  drawChapterInfo(chapter);
  slider.max = String(count);
  view.render(chapter.pages, state.mode, page, endOfChapter(chapter));
  state.page = 0;
  // Opening the reader is not reading yet: the position is saved once the page changes (or on a chapter change).
  setPage(page, { fromView: true, save: !first });
  if (announce) toast(chapterName(chapter));
}

/** Makes `page` the current page: attributes, indicator, address, saved position, preloading. */
function setPage(page, { fromView = false, save = true } = {}) {
  if (!state.chapter) return;
  const count = pageCount();
  const target = Math.min(Math.max(1, Math.round(page) || 1), count);
  if (!fromView) view.show(target);
  if (target === state.page) return;
  state.page = target;
  reader.dataset.page = String(target);
  indicator.textContent = `${target} / ${count}`;
  slider.value = String(target);
  const query = new URLSearchParams({ series: seriesId, chapter: state.chapter.id, page: String(target) });
  history.replaceState(null, '', `/read.html?${query}`);
  if (save) progress.schedule(state.chapter.id, target);
  preload();
}

function forward() {
  if (state.loading || !state.chapter) return;
  if (state.page < pageCount()) setPage(state.page + 1);
  else if (state.chapter.next) openChapter(state.chapter.next, 1, { announce: true });
  else toast('That was the last chapter.');
}

function backward() {
  if (state.loading || !state.chapter) return;
  if (state.page > 1) setPage(state.page - 1);
  else if (state.chapter.previous) openChapter(state.chapter.previous, 'last', { announce: true });
  else toast('This is the first page of the first chapter.');
}

/** The next four pages, and near the end the first pages of the next chapter. */
function preload() {
  const { pages, next } = state.chapter;
  preloader.load(pages.slice(state.page, state.page + 4));
  if (next && state.page >= pages.length - 3) {
    fetchChapter(next).then((upcoming) => preloader.load((upcoming.pages || []).slice(0, 3))).catch(() => {});
  }
}

function fetchChapter(chapterId) {
  if (!chapterCache.has(chapterId)) {
    const loading = getJson(seriesPath(seriesId, 'chapters', chapterId));
    loading.catch(() => chapterCache.delete(chapterId));
    chapterCache.set(chapterId, loading);
  }
  return chapterCache.get(chapterId);
}


function drawChapterInfo(chapter) {
  byId('series-name').textContent = state.seriesTitle || seriesId;
  byId('chapter-name').textContent = chapterName(chapter);
  document.title = `${chapterName(chapter)} · ${state.seriesTitle || seriesId} · MangaCircus`;
  prevButton.disabled = !chapter.previous;
  nextButton.disabled = !chapter.next;
  if ([...chapterSelect.options].some((o) => o.value === chapter.id)) chapterSelect.value = chapter.id;
}

function drawChapterSelect(info) {
  if (info.title) state.seriesTitle = info.title;
  if (state.chapter) drawChapterInfo(state.chapter);
  const chapters = info.chapters || [];
  chapterSelect.replaceChildren(...chapters.map((c) => el('option', {
    value: c.id, text: chapterName(c) + (c.state === 'read' ? ' ✓' : ''),
  })));
  chapterSelect.disabled = chapters.length === 0;
  if (state.chapter) chapterSelect.value = state.chapter.id;
}

/** What the long strip shows after the last page. */
function endOfChapter(chapter) {
  if (!chapter.next) {
    return [el('p', { text: `End of ${chapterName(chapter)}. You are up to date.` }),
      el('a', { class: 'button', href: seriesUrl(), text: 'Back to the series' })];
  }
  const button = el('button', { type: 'button', class: 'primary', text: 'Next chapter »' });
  button.addEventListener('click', () => {
    button.blur();
    openChapter(chapter.next, 1, { announce: true });
  });
  return [el('p', { text: `End of ${chapterName(chapter)}` }), button];
}

function showMessage(title, text, withBack = false) {
  stage.replaceChildren(el('div', { class: 'reader-message', role: 'alert' },
    el('h1', { text: title }), el('p', { text }),
    withBack && seriesId ? el('a', { class: 'button', href: seriesUrl(), text: 'Back to the series' })
      : el('a', { class: 'button', href: '/', text: 'Go to the library' })));
}
