// Series page: the Trackers button and panel, shown when the admin enabled a tracker. Per tracker: the linked entry
// (progress, last sync, errors, the offer to take the tracker's progress, Unlink) or, once signed in, a link to the
// entry the source names and a search of the tracker to pick the entry by hand.
import { el, byId } from './dom.js';
import { getJson, loadSession, putJson, request, seriesPath } from './api.js';
import { entryLink, progressText, lastSync, syncState, pullOffer, safeUrl } from './tracker-link.js';

const seriesId = new URLSearchParams(location.search).get('id') || '';
const toggle = byId('trackers-toggle');
const panel = byId('trackers-panel');
let title = '';

async function start() {
  if (!seriesId || !toggle || !panel) return;
  let answer;
  try {
    await loadSession();
    answer = await getJson(seriesPath(seriesId, 'trackers'));
  } catch (e) {
    return; // no tracker feature (404) or the page itself shows why it cannot load
  }
  if (!answer || !Array.isArray(answer.trackers) || answer.trackers.length === 0) return;
  toggle.hidden = false;
  toggle.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute('aria-expanded', String(!panel.hidden));
    if (!panel.hidden) byId('trackers-panel-heading').focus();
  });
  draw(answer);
}

function say(text, kind = 'ok') {
  const status = byId('trackers-panel-status');
  status.className = `notice ${kind}`;
  status.textContent = text;
}

const fail = (e) => {
  if (!e.redirecting) say(e.message, 'error');
};

async function refresh() {
  try {
    draw(await getJson(seriesPath(seriesId, 'trackers')));
  } catch (e) {
    fail(e);
  }
}

function draw(answer) {
  title = answer.title || title;
  const list = byId('trackers-panel-list');
  // Redrawing removes the button that had the focus (or had it until it was disabled while waiting, which leaves the
  // focus on the body): keyboard users go on from the panel's heading, not the page top.
  const active = document.activeElement;
  const hadFocus = list.contains(active) || (!panel.hidden && (!active || active === document.body));
  list.replaceChildren(...answer.trackers.map(card));
  if (hadFocus) byId('trackers-panel-heading').focus();
}

function card(t) {
  const name = t.name || t.id;
  const box = el('div', { class: 'tracker-card', id: `tracker-card-${t.id}`, 'data-tracker': t.id },
    el('h3', { text: name }));
  if (t.needsSignIn) {
    box.append(el('p', {}, el('span', { class: 'tracker-warning', text: 'Needs sign-in again. ' }), ' ',
      el('a', { class: 'tracker-profile-link', href: '/profile.html#trackers', text: 'Sign in on your profile' }),
      t.link ? el('span', { class: 'quiet', text: ' — updates wait until then.' }) : null));
  } else if (!t.signedIn) {
    box.append(el('p', {}, el('span', { class: 'quiet', text: 'Not signed in. ' }),
      el('a', { class: 'tracker-profile-link', href: '/profile.html#trackers', text: 'Sign in on your profile' })));
  }
  if (t.link) {
    linked(box, t, name);
  } else if (t.signedIn && !t.needsSignIn) {
    unlinked(box, t, name);
  }
  return box;
}

function linked(box, t, name) {
  const link = t.link;
  const unlink = el('button', { type: 'button', id: `tracker-unlink-${t.id}`, class: 'small danger tracker-unlink',
    text: 'Unlink', 'aria-label': `Unlink this series from ${name}` });
  unlink.addEventListener('click', async () => {
    unlink.disabled = true;
    try {
      await request('DELETE', seriesPath(seriesId, 'trackers', t.id));
      say(`Unlinked from ${name}.`);
      await refresh();
    } catch (e) {
      unlink.disabled = false;
      fail(e);
    }
  });
  const offer = pullOffer(t.id, name, seriesId, link, {
    after: async (marked) => {
      say(`Marked ${marked === 1 ? '1 chapter' : `${marked} chapters`} read.`);
      // The chapter list (series.js) redraws itself from the server.
      document.dispatchEvent(new CustomEvent('mc:chapters-changed'));
      await refresh();
    },
    fail,
  });
  box.append(
    el('p', { class: 'tracker-linked' }, 'Linked to ', entryLink(link),
      link.automatic ? el('span', { class: 'quiet tracker-automatic', text: ' · linked automatically from the source' })
        : null),
    el('p', { class: 'tracker-facts' },
      el('span', { text: `Progress on ${name}: ${progressText(link)}` }),
      el('span', {}, 'Last sync: ', lastSync(link)),
      ...syncState(link)),
    offer ? el('p', {}, offer) : null,
    el('div', { class: 'row-buttons' }, unlink));
}

function unlinked(box, t, name) {
  box.append(el('p', { class: 'quiet', text: `This series is not linked to ${name} yet.` }));
  if (t.sourceId != null && t.sourceId !== '') {
    const fromSource = el('button', { type: 'button', id: `tracker-link-source-${t.id}`, class: 'primary tracker-link-source',
      text: 'Link to the entry the source names', 'aria-label': `Link to the ${name} entry the source names` });
    fromSource.addEventListener('click', () => linkTo(t, name, { remoteId: String(t.sourceId) }, fromSource));
    box.append(el('div', { class: 'row-buttons' }, fromSource));
  }
  const input = el('input', { id: `tracker-search-input-${t.id}`, class: 'tracker-search-input', type: 'search',
    autocomplete: 'off', value: title });
  const results = el('ul', { id: `tracker-results-${t.id}`, class: 'tracker-results', 'aria-label': `${name} results` });
  const submit = el('button', { type: 'submit', class: 'tracker-search-button', text: 'Search' });
  const form = el('form', { class: 'form-row tracker-search', role: 'search', 'data-tracker': t.id, novalidate: true },
    el('div', { class: 'field' }, el('label', { for: input.id, text: `Search ${name}` }), input), submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    search(t, name, input.value.trim(), results, submit);
  });
  box.append(form, results);
}

async function search(t, name, query, results, submit) {
  if (!query) {
    say(`Type a title to search ${name} for.`, 'error');
    return;
  }
  submit.disabled = true;
  say(`Searching ${name}…`);
  try {
    const answer = await getJson(`/api/me/trackers/${encodeURIComponent(t.id)}/search?${new URLSearchParams({ q: query })}`);
    const found = (answer && answer.results) || [];
    results.replaceChildren(...found.map((r) => result(t, name, r)));
    say(found.length ? `${found.length === 1 ? '1 entry' : `${found.length} entries`} found on ${name}.`
      : `Nothing found on ${name} for “${query}”.`);
  } catch (e) {
    fail(e);
  } finally {
    submit.disabled = false;
  }
}

/**
 * A cover shown only from this site: the Content-Security-Policy allows images from 'self' alone, so a tracker's
 * own image host would be refused (and reported) by the browser.
 */
function thumb(coverUrl) {
  if (typeof coverUrl !== 'string' || !coverUrl) return null;
  let url;
  try {
    url = new URL(coverUrl, location.href);
  } catch {
    return null;
  }
  if (url.origin !== location.origin) return null;
  const img = el('img', { class: 'thumb', src: url.href, alt: '', loading: 'lazy' });
  img.addEventListener('error', () => { img.hidden = true; });
  return img;
}

function result(t, name, r) {
  const entryTitle = r.title || r.remoteId;
  const facts = [r.format, r.year, r.totalChapters ? `${r.totalChapters} chapters` : null].filter((f) => f != null && f !== '');
  const alternatives = Array.isArray(r.alternativeTitles) ? r.alternativeTitles.filter((a) => typeof a === 'string' && a) : [];
  const url = safeUrl(r.url);
  const button = el('button', { type: 'button', class: 'small primary tracker-link-button', text: 'Link',
    'data-remote-id': String(r.remoteId), 'aria-label': `Link to ${entryTitle}` });
  button.addEventListener('click', () => linkTo(t, name, { remoteId: String(r.remoteId), title: r.title }, button));
  return el('li', { class: 'tracker-result', 'data-remote-id': String(r.remoteId) },
    thumb(r.coverUrl) || el('span', { class: 'thumb', 'aria-hidden': 'true' }),
    el('div', {},
      url ? el('a', { class: 'result-title', href: url, rel: 'noopener noreferrer', target: '_blank', text: entryTitle })
        : el('span', { class: 'result-title', text: entryTitle }),
      alternatives.length ? el('small', { class: 'quiet alt-titles', text: alternatives.join(' · ') }) : null,
      facts.length ? el('span', { class: 'quiet', text: facts.join(' · ') }) : null),
    button);
}

async function linkTo(t, name, body, button) {
  button.disabled = true;
  try {
    const link = await putJson(seriesPath(seriesId, 'trackers', t.id), body);
    say(`Linked to ${(link && link.title) || body.title || name}.`);
    await refresh();
  } catch (e) {
    button.disabled = false;
    fail(e);
  }
}

start();
