// Series page: cover, description, tags and metadata (authors, genres, status, year, rating, links), the Continue
// button and the chapter list with read marks.
import { el, byId, ago, fullDate, chapterLabel, chapterName, plural, toast } from './dom.js';
import { getJson, putJson, seriesPath } from './api.js';
import { startPage } from './page.js';
import { coverBox } from './covers.js';

const seriesId = new URLSearchParams(location.search).get('id') || '';
const rows = new Map();
let series = null;

startPage('library', async () => {
  if (!seriesId) throw new Error('No series was chosen. Go back to the library and pick one.');
  const [answer, catalog] = await Promise.all([
    getJson(seriesPath(seriesId)).catch((e) => {
      if (e.status === 404 || e.status === 400) {
        byId('series-title').textContent = 'Series not found';
        byId('series-hero').classList.add('missing');
      }
      throw e;
    }),
    getJson('/api/catalog').catch(() => null),
  ]);
  drawHeader(answer, catalog);
  draw(answer);
  byId('mark-all-read').addEventListener('click', markAllRead);
  // Taking a tracker's progress (series-trackers.js) marks chapters read on the server.
  document.addEventListener('mc:chapters-changed', refresh);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) refresh();
  });
});

async function refresh() {
  try {
    draw(await getJson(seriesPath(seriesId)));
  } catch (e) {
    if (!e.redirecting) toast(e.message, { error: true });
  }
}

// A chapter of a series merged into this one is read, downloaded and marked under the series that holds it.
function readerUrl(chapterId, page, chapterSeries = seriesId) {
  const query = new URLSearchParams({ series: chapterSeries, chapter: chapterId });
  if (page) query.set('page', String(page));
  return `/read.html?${query}`;
}

function drawHeader(s, catalog) {
  const title = s.title || s.id;
  document.title = `${title} · MangaCircus`;
  byId('series-title').textContent = title;
  byId('series-cover-slot').replaceChildren(coverBox(s.id, title, { eager: true }));
  const entry = catalog && catalog.series && catalog.series[s.id];
  const metadata = s.metadata || {};
  const description = (s.description || (entry && entry.description) || metadata.summary || '').trim();
  const tags = (s.tags && s.tags.length ? s.tags : (entry && entry.tags && entry.tags.length ? entry.tags
    : metadata.tags)) || [];
  byId('series-description').textContent = description;
  byId('series-description').hidden = !description;
  byId('series-tags').replaceChildren(...tags.filter((t) => typeof t === 'string' && t).map((t) => el('li', { text: t })));
  byId('series-tags').hidden = tags.length === 0;
  drawDetails(metadata);
  const source = byId('series-source');
  source.hidden = !s.sourceUrl;
  if (s.sourceUrl) {
    source.replaceChildren('At the source: ', el('a', { href: s.sourceUrl, rel: 'noopener noreferrer', target: '_blank',
      text: `${s.source || 'source'} ↗`, title: s.sourceUrl }));
  }
}

const ROLES = { writer: 'Writer', penciller: 'Art', inker: 'Inks', colorist: 'Colours', letterer: 'Letters',
  cover: 'Cover', editor: 'Editor', translator: 'Translation' };
const RATINGS = { all: 'All ages', 9: '9+', 12: '12+', 15: '15+', 18: '18+' };
const RATING_ORIGINS = { admin: 'set by an admin', source: 'from the source', comic_info: "from the books' ComicInfo" };
const STATUSES = { ongoing: 'Ongoing', completed: 'Completed', hiatus: 'On hiatus', cancelled: 'Cancelled' };

/** The series' metadata as term and value pairs, each only when known; every value goes in as text. */
function drawDetails(m) {
  const rows = [];
  const add = (term, ...value) => rows.push(el('dt', { text: term }), el('dd', {}, ...value));
  const strings = (list) => (Array.isArray(list) ? list.filter((v) => typeof v === 'string' && v) : []);
  const authors = Array.isArray(m.authors) ? m.authors.filter((a) => a && typeof a.name === 'string') : [];
  if (authors.length) {
    add(authors.length === 1 ? 'Author' : 'Authors', authors.map((a) => `${a.name} (${ROLES[a.role] || a.role})`)
      .join(', '));
  }
  if (strings(m.genres).length) add('Genres', strings(m.genres).join(', '));
  if (STATUSES[m.status]) add('Status', STATUSES[m.status]);
  if (Number.isInteger(m.year)) add('Year', String(m.year));
  if (typeof m.publisher === 'string' && m.publisher) add('Publisher', m.publisher);
  if (RATINGS[m.ageRating]) {
    const origin = RATING_ORIGINS[m.ageRatingOrigin];
    add('Rating', el('span', { class: 'series-rating', text: RATINGS[m.ageRating] }), origin ? ` (${origin})` : '');
  }
  // The server keeps http and https links only; checked again here, as a link's scheme decides what a click runs.
  const links = strings(m.links).filter((url) => /^https?:\/\//i.test(url));
  if (links.length) {
    add(links.length === 1 ? 'Link' : 'Links', ...links.flatMap((url, i) => [i ? ' ' : '',
      el('a', { href: url, rel: 'noopener noreferrer', target: '_blank', text: hostOf(url), title: url })]));
  }
  const details = byId('series-details');
  details.replaceChildren(...rows);
  details.hidden = rows.length === 0;
}

function hostOf(url) {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Draws the meta line, the Continue button and the rows (rows are updated in place). */
function draw(s) {
  // A series merged into another is read there: its own page would show it twice.
  if (s.mergedInto) {
    location.replace(`/series.html?${new URLSearchParams({ id: s.mergedInto })}`);
    return;
  }
  series = s;
  const chapters = s.chapters || [];
  const read = chapters.filter((c) => c.state === 'read').length;
  const meta = [plural(chapters.length, 'chapter')];
  if (s.source) meta.push(`Source: ${s.source}`);
  if (s.updatedAt) meta.push(`Updated ${ago(s.updatedAt)}`);
  byId('series-meta').replaceChildren(...meta.map((m) => el('span', { text: m })));
  byId('chapter-summary').textContent = chapters.length ? `${read} of ${chapters.length} read` : '';
  drawContinue(s);
  const markAll = byId('mark-all-read');
  markAll.disabled = chapters.length === 0 || read === chapters.length;

  const list = byId('chapter-list');
  const seen = new Set();
  const nodes = chapters.map((c) => {
    seen.add(c.id);
    let row = rows.get(c.id);
    if (!row) {
      row = makeRow(c);
      rows.set(c.id, row);
    }
    updateRow(row, c);
    return row;
  });
  for (const id of [...rows.keys()]) if (!seen.has(id)) rows.delete(id);
  list.replaceChildren(...nodes);
  if (chapters.length === 0) {
    list.replaceChildren(el('li', { class: 'chapter-row' }, el('span', { class: 'quiet', text: 'No chapters yet.' })));
  }
}

/** Continue where the saved position is; after a finished chapter, the next unread one; else the first. */
function drawContinue(s) {
  const button = byId('continue-button');
  const chapters = s.chapters || [];
  let label = 'Start reading';
  let href = null;
  const saved = s.progress && chapters.findIndex((c) => c.id === s.progress.chapter);
  if (s.progress && saved >= 0) {
    const at = chapters[saved];
    const finished = at.state === 'read' && Number(s.progress.page) >= Number(at.pages);
    const after = finished ? chapters.slice(saved + 1).find((c) => c.state !== 'read') : null;
    if (after) {
      label = `Continue: ${chapterLabel(after)}`;
      href = readerUrl(after.id, after.state === 'reading' ? after.page : 1, after.series);
    } else {
      label = `Continue: ${chapterLabel(at)}, page ${s.progress.page}`;
      href = readerUrl(at.id, s.progress.page);
    }
  } else if (chapters.length) {
    const first = chapters.find((c) => c.state !== 'read') || chapters[0];
    label = first === chapters[0] ? 'Start reading' : `Read ${chapterLabel(first)}`;
    href = readerUrl(first.id, null, first.series);
  }
  button.textContent = label;
  if (href) {
    button.href = href;
    button.removeAttribute('aria-disabled');
  } else {
    button.removeAttribute('href');
    button.setAttribute('aria-disabled', 'true');
  }
}

function makeRow(c) {
  const markRead = el('button', { type: 'button', class: 'small mark-read', text: 'Mark read' });
  const markUnread = el('button', { type: 'button', class: 'small mark-unread', text: 'Mark unread' });
  // The chapter as a CBZ (its pages and ComicInfo.xml), for reading elsewhere; the browser keeps the file's name.
  const download = el('a', { class: 'button small download-chapter', href: seriesPath(c.series || seriesId, 'chapters', `${c.id}.cbz`),
    download: true, text: 'Download', title: 'Download chapter (CBZ)' });
  const row = el('li', { class: 'chapter-row', 'data-chapter-id': c.id, 'data-series': c.series || seriesId },
    el('a', { class: 'chapter-link', href: readerUrl(c.id, null, c.series) },
      el('span', { class: 'chapter-name' }),
      el('span', { class: 'chapter-sub' })),
    el('span', { class: 'chapter-state' }),
    el('div', { class: 'row-actions' }, download, markRead, markUnread));
  markRead.addEventListener('click', () => setRead(row, true));
  markUnread.addEventListener('click', () => setRead(row, false));
  return row;
}

function updateRow(row, c) {
  const state = ['read', 'reading', 'unread'].includes(c.state) ? c.state : 'unread';
  row.dataset.state = state;
  const name = chapterName(c);
  row.querySelector('.chapter-name').textContent = name;
  row.querySelector('.chapter-name').title = name;
  const sub = [plural(Number(c.pages) || 0, 'page')];
  if (c.publishedAt) sub.push(ago(c.publishedAt));
  const subLine = row.querySelector('.chapter-sub');
  subLine.textContent = sub.join(' · ');
  subLine.title = c.publishedAt ? `Published ${fullDate(c.publishedAt)}` : '';
  const stateText = state === 'read' ? 'Read'
    : state === 'reading' ? `Page ${c.page || 1} of ${c.pages}` : 'Unread';
  row.querySelector('.chapter-state').textContent = stateText;
  row.querySelector('.chapter-link').href = readerUrl(c.id, null, c.series);
  row.querySelector('.download-chapter').setAttribute('aria-label', `Download ${name} (CBZ)`);
  row.querySelector('.mark-read').hidden = state === 'read';
  row.querySelector('.mark-unread').hidden = state !== 'read';
}

/** PUT .../read, then redraw from the server's answer. */
async function setRead(row, read) {
  const buttons = row.querySelectorAll('button');
  buttons.forEach((b) => { b.disabled = true; });
  try {
    await putJson(seriesPath(row.dataset.series, 'chapters', row.dataset.chapterId, 'read'), { read });
    try {
      draw(await getJson(seriesPath(seriesId)));
    } catch (e) {
      const chapter = (series.chapters || []).find((c) => c.id === row.dataset.chapterId
        && (c.series || seriesId) === row.dataset.series);
      if (chapter) updateRow(row, { ...chapter, state: read ? 'read' : 'unread', page: null });
      throw e;
    }
  } catch (e) {
    if (!e.redirecting) toast(e.message, { error: true });
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

async function markAllRead() {
  const button = byId('mark-all-read');
  const unread = (series.chapters || []).filter((c) => c.state !== 'read');
  if (!unread.length) return;
  button.disabled = true;
  try {
    for (const c of unread) {
      await putJson(seriesPath(c.series || seriesId, 'chapters', c.id, 'read'), { read: true });
    }
    toast(`Marked ${plural(unread.length, 'chapter')} read`);
  } catch (e) {
    if (!e.redirecting) toast(e.message, { error: true });
  }
  await refresh();
}
