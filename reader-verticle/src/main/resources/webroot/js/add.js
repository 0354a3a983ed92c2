// Admin → Add titles: search one source or every source that can search (debounced), results as cards with covers,
// a title's preview (chapters by language and group, what the library holds), adding it with a language, a preferred
// group and follow; the Following list with Unfollow. Everything goes through the /api/admin routes (docs/api.md).
import { el, byId, ago, fullDate, plural, toast } from './dom.js';
import { getJson, postJson, putJson } from './api.js';
import { startPage } from './page.js';

const DEBOUNCE_MS = 400;
const MIN_QUERY = 2;

const PROBLEM_TEXT = {
  circuit_open: 'failing lately, resting — try later',
  rate_limited: 'rate limited — try again in a moment',
  cannot_search: 'this source cannot search',
  source_failed: 'the search failed',
};

let sources = [];
let searchTimer = 0;
let searchSeq = 0;
let previewSeq = 0;
let shown = null;

function say(text, kind = 'ok') {
  const box = byId('add-message');
  box.className = `notice ${kind}`;
  box.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  box.textContent = text;
}

const encode = (part) => encodeURIComponent(part);

startPage('add', async () => {
  byId('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    searchNow();
  });
  byId('search-q').addEventListener('input', scheduleSearch);
  byId('search-source').addEventListener('change', searchNow);
  byId('add-form').addEventListener('submit', addShown);
  byId('preview-close').addEventListener('click', closePreview);
  byId('following-reload').addEventListener('click', loadFollowing);
  await Promise.all([loadSources(), loadFollowing()]);
});

async function loadSources() {
  try {
    const answer = await getJson('/api/admin/sources');
    sources = answer.sources || [];
  } catch (e) {
    say(`Sources: ${e.message}`, 'error');
    return;
  }
  const select = byId('search-source');
  const all = select.querySelector('option[value=""]');
  select.replaceChildren(all, ...sources.map((s) => el('option', {
    value: s.name,
    disabled: !s.canSearch,
    text: s.name + (!s.canSearch ? ' (cannot search)' : s.circuit === 'open' ? ' (failing lately, resting)' : ''),
  })));
}

function scheduleSearch() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(searchNow, DEBOUNCE_MS);
}

async function searchNow() {
  clearTimeout(searchTimer);
  const q = byId('search-q').value.trim();
  const source = byId('search-source').value;
  const seq = ++searchSeq;
  if (q.length < MIN_QUERY) {
    byId('search-status').textContent = q ? `Type at least ${MIN_QUERY} letters.` : '';
    byId('search-problems').replaceChildren();
    byId('search-results').replaceChildren();
    return;
  }
  byId('search-status').textContent = `Searching ${source || 'every source'} for “${q}”…`;
  const params = new URLSearchParams({ q });
  if (source) params.set('source', source);
  let answer;
  try {
    answer = await getJson(`/api/admin/search?${params}`);
  } catch (e) {
    if (seq !== searchSeq) return;
    byId('search-status').textContent = '';
    byId('search-results').replaceChildren();
    byId('search-problems').replaceChildren(el('li', { class: 'problem', text: e.message }));
    return;
  }
  if (seq !== searchSeq) return;
  drawResults(answer);
}

function problemText(problem) {
  const what = PROBLEM_TEXT[problem.code];
  const detail = problem.message && problem.code !== 'circuit_open' && problem.code !== 'cannot_search'
    ? `${what ? what + ': ' : ''}${problem.message}` : (what || problem.message || problem.code);
  return `${problem.source}: ${detail}`;
}

function drawResults(answer) {
  const results = answer.results || [];
  const problems = answer.problems || [];
  byId('search-status').textContent = results.length ? `${plural(results.length, 'result')} for “${answer.query}”.`
    : `Nothing found for “${answer.query}”${problems.length ? ' on the sources that answered' : ''}.`;
  byId('search-problems').replaceChildren(...problems.map((p) => el('li', {
    class: 'problem', dataset: { source: p.source, code: p.code || '' }, text: problemText(p),
  })));
  byId('search-results').replaceChildren(...results.map(resultCard));
}

/** The library's own cover first (on disk: shown even when the site is slow or its circuit open), then the site's. */
function coverPaths(item) {
  return [item.libraryCover, item.cover].filter(Boolean);
}

function coverImage(paths, eager) {
  const box = el('div', { class: 'cover result-cover', 'data-initial': '?' });
  if (!paths.length) {
    box.classList.add('missing');
    return box;
  }
  let next = 0;
  const img = el('img', { src: paths[next], alt: '', loading: eager ? 'eager' : 'lazy', decoding: 'async' });
  img.addEventListener('error', () => {
    next += 1;
    if (next < paths.length) img.src = paths[next];
    else box.classList.add('missing');
  });
  box.append(img);
  return box;
}

function metaLine(item) {
  return [item.year, item.status, item.source].filter((x) => x != null && x !== '').join(' · ');
}

function resultCard(result, index) {
  const open = () => openPreview(result);
  const card = el('article', {
    class: 'result-card', tabindex: '0', dataset: { source: result.source, titleId: result.titleId,
      inLibrary: String(!!result.inLibrary) },
    'aria-label': `${result.title} (${result.source})`,
  },
  coverImage(coverPaths(result), index < 12),
  el('div', { class: 'result-info' },
    el('h3', { class: 'result-title', text: result.title || result.titleId }),
    result.inLibrary ? el('p', { class: 'result-held' }, 'In your library · ',
      el('a', { href: `/series.html?id=${encode(result.series)}`, text: 'open the series',
        onclick: (event) => event.stopPropagation() })) : null,
    result.altTitles && result.altTitles.length
      ? el('p', { class: 'result-alt quiet', text: result.altTitles.slice(0, 3).join(' · ') }) : null,
    el('p', { class: 'result-meta quiet', text: metaLine(result) }),
    el('p', { class: 'result-languages quiet', text: languagesText(result.languages) }),
    result.chapterCount != null ? el('p', { class: 'result-chapters quiet',
      text: plural(result.chapterCount, 'chapter') }) : null,
    el('button', { type: 'button', class: 'small result-open', text: 'Preview' })));
  card.addEventListener('click', open);
  card.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target === card) open();
  });
  return card;
}

function languagesText(languages) {
  return languages && languages.length ? `Languages: ${languages.join(', ')}` : '';
}

async function openPreview(result) {
  const seq = ++previewSeq;
  const panel = byId('preview');
  panel.hidden = false;
  panel.dataset.source = result.source;
  panel.dataset.titleId = result.titleId;
  delete panel.dataset.loaded;
  byId('preview-title').textContent = result.title || result.titleId;
  byId('preview-alt').textContent = '';
  byId('preview-meta').textContent = 'Loading the preview…';
  byId('preview-description').textContent = '';
  byId('preview-tags').replaceChildren();
  byId('preview-chapters').replaceChildren();
  byId('preview-summary').textContent = '';
  byId('add-result').textContent = '';
  byId('add-submit').disabled = true;
  setCover(coverPaths(result)[0]);
  panel.scrollIntoView({ block: 'start' });
  let preview;
  try {
    preview = await getJson(`/api/admin/titles/${encode(result.source)}/${encode(result.titleId)}`);
  } catch (e) {
    if (seq !== previewSeq) return;
    byId('preview-meta').textContent = '';
    byId('add-result').className = 'notice error';
    byId('add-result').textContent = `Preview: ${e.message}`;
    return;
  }
  if (seq !== previewSeq) return;
  shown = preview;
  drawPreview(preview);
  panel.dataset.loaded = 'true';
}

function setCover(path) {
  const img = byId('preview-cover');
  img.parentElement.classList.toggle('missing', !path);
  if (path) img.src = path;
  else img.removeAttribute('src');
}

function drawPreview(preview) {
  byId('preview-title').textContent = preview.title || preview.titleId;
  byId('preview-alt').textContent = (preview.altTitles || []).join(' · ');
  byId('preview-meta').textContent = [metaLine(preview), languagesText(preview.languages)].filter(Boolean)
    .join(' · ');
  byId('preview-description').textContent = preview.description || '';
  byId('preview-tags').replaceChildren(...(preview.tags || []).map((t) => el('li', { text: t })));
  // The library's cover, when the search result had one, stays: it needs no site.
  if (preview.cover && !byId('preview-cover').getAttribute('src')) setCover(preview.cover);
  if (preview.url) {
    byId('preview-meta').append(' · ', el('a', { href: preview.url, rel: 'noopener noreferrer', target: '_blank',
      text: 'on the source' }));
  }
  const chapters = preview.chapters || [];
  const languages = preview.languages && preview.languages.length ? preview.languages
    : [...new Set(chapters.map((c) => c.language).filter(Boolean))];
  const language = byId('add-language');
  language.replaceChildren(...languages.map((l) => el('option', { value: l, text: l })));
  if (!languages.length) language.append(el('option', { value: 'en', text: 'en' }));
  language.value = languages.includes('en') ? 'en' : (languages[0] || 'en');
  // Only a source that honours a group preference lists groups in its preview; with none, there is nothing to choose.
  const groups = preview.groups || [];
  const group = byId('add-group');
  group.replaceChildren(el('option', { value: '', text: 'No preference (first uploaded)' }),
    ...groups.map((g) => el('option', { value: g.id, text: g.name || g.id })));
  group.disabled = !groups.length;
  byId('add-submit').disabled = false;
  const held = chapters.filter((c) => c.inLibrary).length;
  byId('preview-summary').textContent = `${plural(chapters.length, 'chapter')} on the source`
    + (held ? `, ${held} already in the library.` : '.');
  drawChapters(chapters, groups);
}

/** Chapters by language, then by scanlation group (or groups: a joint release is its own group). */
function drawChapters(chapters, groups) {
  const names = new Map(groups.map((g) => [g.id, g.name || g.id]));
  const byLanguage = new Map();
  for (const chapter of chapters) {
    const language = chapter.language || '?';
    if (!byLanguage.has(language)) byLanguage.set(language, new Map());
    const ids = chapter.groupIds || [];
    const key = ids.length ? ids.map((id) => names.get(id) || id).join(' + ') : 'No group';
    const byGroup = byLanguage.get(language);
    if (!byGroup.has(key)) byGroup.set(key, []);
    byGroup.get(key).push(chapter);
  }
  const chosen = byId('add-language').value;
  const sections = [...byLanguage.entries()].map(([language, byGroup]) => {
    const count = [...byGroup.values()].reduce((n, list) => n + list.length, 0);
    return el('details', { class: 'language-group', dataset: { language }, open: language === chosen },
      el('summary', { text: `${language} — ${plural(count, 'chapter')}` }),
      ...[...byGroup.entries()].map(([group, list]) => el('div', { class: 'group-block', dataset: { group } },
        el('h4', { text: `${group} (${list.length})` }),
        el('ul', { class: 'chapter-chips' }, list.map(chapterChip)))));
  });
  byId('preview-chapters').replaceChildren(...(sections.length ? sections
    : [el('p', { class: 'quiet', text: 'The source lists no chapter for this title.' })]));
}

function chapterChip(chapter) {
  const label = chapter.number != null && chapter.number !== '' ? `Ch. ${chapter.number}` : (chapter.title || '?');
  const notes = [];
  if (chapter.inLibrary) notes.push('in the library');
  if (!chapter.downloadable) notes.push(chapter.reason || 'not downloadable');
  return el('li', {
    class: `chapter-chip${chapter.inLibrary ? ' held' : ''}${chapter.downloadable === false ? ' unavailable' : ''}`,
    dataset: { chapterId: chapter.id, inLibrary: String(Boolean(chapter.inLibrary)) },
    title: [chapter.title, chapter.publishedAt ? fullDate(chapter.publishedAt) : '', ...notes].filter(Boolean)
      .join(' · '),
  }, label, chapter.inLibrary ? el('span', { class: 'held-mark', text: ' ✓', 'aria-label': 'in the library' })
    : null);
}

function closePreview() {
  previewSeq++;
  shown = null;
  byId('preview').hidden = true;
}

async function addShown(event) {
  event.preventDefault();
  if (!shown) return;
  const button = byId('add-submit');
  const group = byId('add-group').value;
  const body = {
    source: shown.source,
    title: shown.titleId,
    autoConfirm: true,
    language: byId('add-language').value || 'en',
    preferredGroups: group && !byId('add-group').disabled ? [group] : [],
    follow: byId('add-follow').checked,
  };
  button.disabled = true;
  const box = byId('add-result');
  try {
    const answer = await postJson('/api/admin/jobs', body);
    const job = (answer && answer.job) || {};
    box.className = 'notice ok';
    box.replaceChildren(
      `${answer && answer.created === false ? 'Already queued' : 'Added'}: ${job.title || shown.title} — job `,
      el('code', { id: 'added-job', text: job.id || '?', dataset: { jobId: job.id || '' } }),
      ` (${job.state || 'queued'}, ${body.language}${body.follow ? ', followed' : ''}). `,
      el('a', { href: '/admin/scraper.html', text: 'Watch it in the scraper console' }), '.');
    if (body.follow) loadFollowing();
  } catch (e) {
    box.className = 'notice error';
    box.textContent = `Add ${shown.title}: ${e.message}`;
  } finally {
    button.disabled = false;
  }
}

async function loadFollowing() {
  const list = byId('following');
  let answer;
  try {
    answer = await getJson('/api/admin/following');
  } catch (e) {
    list.replaceChildren(el('p', { class: 'notice error', text: `Following: ${e.message}` }));
    return;
  }
  const titles = answer.titles || [];
  list.replaceChildren(...(titles.length ? titles.map(followRow)
    : [el('p', { class: 'quiet', text: 'No title is followed yet.' })]));
}

function when(iso, none) {
  return iso ? el('time', { datetime: iso, title: fullDate(iso), text: ago(iso) }) : none;
}

function followRow(title) {
  const unfollow = el('button', { type: 'button', class: 'small', dataset: { action: 'unfollow' }, text: 'Unfollow' });
  unfollow.addEventListener('click', async () => {
    unfollow.disabled = true;
    try {
      await putJson(`/api/admin/following/${encode(title.source)}/${encode(title.titleId)}`, { follow: false });
      toast(`${title.title || title.titleId} is no longer followed; its chapters stay in the library.`);
      await loadFollowing();
    } catch (e) {
      unfollow.disabled = false;
      toast(`Unfollow: ${e.message}`, { error: true });
    }
  });
  return el('div', { class: 'follow-row', dataset: { source: title.source, titleId: title.titleId } },
    el('div', { class: 'follow-title' }, el('strong', { text: title.title || title.titleId }),
      el('span', { class: 'quiet', text: ` ${title.source} · ${title.language || ''}` })),
    el('dl', { class: 'follow-times' },
      el('dt', { text: 'Last check' }), el('dd', {}, when(title.lastCheckAt, 'not yet')),
      el('dt', { text: 'Last new chapter' }), el('dd', {}, when(title.lastNewChapterAt, 'none yet')),
      el('dt', { text: 'Next check' }), el('dd', {}, when(title.nextCheckAt, 'with the next discovery'))),
    unfollow);
}
