// Reader page: opens a chapter, turns pages one or two at a time or in a long strip, keeps the reading settings,
// saves the reading position.
import { el, byId, toast, chapterLabel, chapterName } from './dom.js';
import { getJson, loadSession, seriesPath } from './api.js';
import { loadSettings, saveSettings, complete, resolveLayout } from './reader/prefs.js';
import { pairPages, singlePages, spreadIndexOf } from './reader/spreads.js';
import { ReaderChrome } from './reader/chrome.js';
import { SettingsBar } from './reader/settings-bar.js';
import { endNodes } from './reader/end.js';
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
const chapterSelect = byId('chapter-select');
const prevButton = byId('prev-chapter');
const nextButton = byId('next-chapter');
const backLink = byId('back-link');

// settings: what the user chose; layout: what is drawn ('auto' resolved); spreads: the pages shown together in the
// paged layouts (one page each in 'single'); atEnd: the paged end screen is shown after the last spread.
const state = {
  chapter: null, page: 0, settings: complete({}), layout: 'single', spreads: [], spread: 0, atEnd: false,
  sizes: [], loading: false, seriesTitle: '',
};
const chapterCache = new Map();
const preloader = new Preloader();
const view = new PageView(stage, { onStripPage: (page) => setPage(page, { fromView: true }) });
const chrome = new ReaderChrome(reader, { onPage: (page) => setPage(page) });
const bar = new SettingsBar(reader, { onChange: (patch) => change(patch) });
let progress = null;
let openSeq = 0;

const seriesUrl = () => `/series.html?id=${encodeURIComponent(seriesId)}`;
const pageCount = () => (state.chapter ? state.chapter.pages.length : 0);

main();

async function main() {
  // A chapter named in the address is asked for with the session, not after it: opening a stored chapter offline
  // then waits for one round of answers from the service worker rather than two in a row.
  const named = seriesId && params.get('chapter');
  const early = named ? getJson(seriesPath(seriesId, 'chapters', named)) : null;
  if (early) early.catch(() => {});
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
  const settings = loadSettings(seriesId).catch(() => ({ settings: complete({}) }));
  progress = new ProgressSaver(seriesId, {
    onSaved: ({ chapter, page }) => {
      if (state.chapter && chapter === state.chapter.id) reader.dataset.savedPage = String(page);
    },
    onError: (e) => {
      if (!e.redirecting) toast(`Your place was not saved: ${e.message}`, { error: true });
    },
  });
  bindControls();
  bindInput(stage, () => (state.layout === 'strip' ? 'strip' : state.settings.direction), {
    forward, backward, first: () => setPage(1), last: () => setPage(pageCount()), back: leave,
    scroll: (fraction) => view.scrollByFraction(fraction), ...bar.keys(), ...chrome.keys(),
  });
  window.addEventListener('resize', () => {
    if (state.settings.layout === 'auto' && resolveLayout('auto') !== state.layout) redraw();
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
  applySettings((await settings).settings);
  bar.ready();
  await openChapter(chapterId, start, { first: true, prefetched: chapterId === named ? early : null });
}

function applySettings(settings) {
  state.settings = complete(settings);
  state.layout = resolveLayout(state.settings.layout);
  bar.show(state.settings, state.layout);
  view.direction = state.settings.direction;
}

/** A settings change from a control or a key: applied, redrawn where it matters, kept for the series. */
function change(patch) {
  const before = { ...state.settings, drawn: state.layout };
  applySettings({ ...state.settings, ...patch });
  saveSettings(seriesId, state.settings).then((result) => { reader.dataset.settingsSaved = result.saved; });
  if (!state.chapter) return;
  if (before.drawn !== state.layout || (state.layout === 'double' && before.offset !== state.settings.offset)) {
    redraw();
  } else if (before.crop !== state.settings.crop) {
    view.setCrop(state.settings.crop);
  }
}

/** Draws the open chapter again in the current layout, at the same page. */
function redraw() {
  if (!state.chapter) return;
  state.layout = resolveLayout(state.settings.layout);
  bar.show(state.settings, state.layout);
  const page = state.page || 1;
  draw(state.chapter, page);
  state.page = 0;
  setPage(page, { fromView: state.layout === 'strip', save: false });
}

function bindControls() {
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
async function openChapter(chapterId, start, { first = false, announce = false, prefetched = null } = {}) {
  const seq = ++openSeq;
  state.loading = true;
  reader.setAttribute('aria-busy', 'true');
  if (state.chapter && state.chapter.id !== chapterId) progress.flush();
  let chapter;
  try {
    chapter = await (prefetched || getJson(seriesPath(seriesId, 'chapters', chapterId)));
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
  chrome.drawThumbs(chapter.pages);
  draw(chapter, page);
  state.page = 0;
  // Opening the reader is not reading yet: the position is saved once the page changes (or on a chapter change).
  setPage(page, { fromView: true, save: !first });
  if (announce) toast(chapterName(chapter));
}

/** Draws a chapter in the current layout; in the double layout the pairing follows the pages' sizes as they load. */
function draw(chapter, page) {
  const count = chapter.pages.length;
  state.atEnd = false;
  state.sizes = new Array(count).fill(null);
  state.spreads = state.layout === 'double' ? pairPages(state.sizes, state.settings.offset) : singlePages(count);
  reader.dataset.spreads = spreadList();
  delete reader.dataset.end;
  view.render(chapter.pages, state.layout === 'strip' ? 'strip' : 'paged', page, endOfChapter(chapter),
    { crop: state.settings.crop });
  if (state.layout !== 'double') return;
  let queued = false;
  preloader.measure(chapter.pages, (index, width, height) => {
    if (state.chapter !== chapter || state.layout !== 'double') return;
    state.sizes[index] = { width, height };
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      repair(chapter);
    });
  });
}

/** Pairs the pages again once more sizes are known, keeping the page in view. */
function repair(chapter) {
  if (state.chapter !== chapter || state.layout !== 'double') return;
  const spreads = pairPages(state.sizes, state.settings.offset);
  const before = spreadList();
  state.spreads = spreads;
  reader.dataset.spreads = spreadList();
  if (before === reader.dataset.spreads || state.atEnd) return;
  const shown = state.spreads[spreadIndexOf(state.spreads, view.current || state.page)];
  showSpreadOf(shown[0], { save: false });
}

const spreadList = () => state.spreads.map((pages) => pages.join('-')).join(' ');

/** Makes `page` the current page: its spread shown, attributes, indicator, address, saved position, preloading. */
function setPage(page, { fromView = false, save = true } = {}) {
  if (!state.chapter) return;
  const count = pageCount();
  const target = Math.min(Math.max(1, Math.round(page) || 1), count);
  if (state.layout === 'strip') {
    if (!fromView) view.show(target);
    record(target, [target], save);
  } else {
    showSpreadOf(target, { save });
  }
}

/**
 * Shows the spread holding `page`. The position recorded is the spread's first page, or its last page for the last
 * spread, so that reaching the end of a chapter in two-page mode still marks it read.
 */
function showSpreadOf(page, { save = true } = {}) {
  const index = spreadIndexOf(state.spreads, page);
  const pages = state.spreads[index];
  const last = index === state.spreads.length - 1;
  state.spread = index;
  state.atEnd = false;
  delete reader.dataset.end;
  view.showSpread(pages);
  reader.dataset.spread = pages.join('-');
  record(last ? pages[pages.length - 1] : pages[0], pages, save);
}

function record(target, pages, save) {
  const count = pageCount();
  const label = pages.length > 1 ? `${pages[0]}–${pages[pages.length - 1]} / ${count}` : `${target} / ${count}`;
  indicator.textContent = label;
  chrome.showing(pages, count, label);
  if (target === state.page) return;
  state.page = target;
  reader.dataset.page = String(target);
  slider.value = String(target);
  const query = new URLSearchParams({ series: seriesId, chapter: state.chapter.id, page: String(target) });
  history.replaceState(null, '', `/read.html?${query}`);
  if (save) progress.schedule(state.chapter.id, target);
  preload();
}

/** The paged end screen: the chapter is done; the next one, or word that there is none yet. */
function showEnd() {
  state.atEnd = true;
  reader.dataset.end = state.chapter.next ? 'next' : 'none';
  view.showEnd(endOfChapter(state.chapter));
  indicator.textContent = 'End';
  chrome.showing([], pageCount(), 'End');
}

function forward() {
  if (state.loading || !state.chapter) return;
  if (state.layout === 'strip') {
    if (state.page < pageCount()) setPage(state.page + 1);
    else nextChapter();
  } else if (state.atEnd) {
    nextChapter();
  } else if (state.spread < state.spreads.length - 1) {
    showSpreadOf(state.spreads[state.spread + 1][0]);
  } else {
    showEnd();
  }
}

function nextChapter() {
  if (state.chapter.next) openChapter(state.chapter.next, 1, { announce: true });
  else toast('There is no next chapter yet: you are up to date.');
}

function backward() {
  if (state.loading || !state.chapter) return;
  if (state.layout !== 'strip' && state.atEnd) {
    showSpreadOf(state.spreads[state.spreads.length - 1][0], { save: false });
  } else if (state.layout !== 'strip' && state.spread > 0) {
    showSpreadOf(state.spreads[state.spread - 1][0]);
  } else if (state.layout === 'strip' && state.page > 1) {
    setPage(state.page - 1);
  } else if (state.chapter.previous) {
    openChapter(state.chapter.previous, 'last', { announce: true });
  } else {
    toast('This is the first page of the first chapter.');
  }
}

/**
 * The next four pages, and near the end the first pages of the next chapter: once the pages shown now are there, so
 * that the page the reader waits for never shares the connection (or the worker and the decoder offline) with them.
 */
function preload() {
  view.whenShown().then(preloadAfterShown);
}

function preloadAfterShown() {
  if (!state.chapter) return;
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

function endOfChapter(chapter) {
  return endNodes(chapter, seriesUrl(), () => openChapter(chapter.next, 1, { announce: true }));
}

function showMessage(title, text, withBack = false) {
  stage.replaceChildren(el('div', { class: 'reader-message', role: 'alert' },
    el('h1', { text: title }), el('p', { text }),
    withBack && seriesId ? el('a', { class: 'button', href: seriesUrl(), text: 'Back to the series' })
      : el('a', { class: 'button', href: '/', text: 'Go to the library' })));
}
