// Profile page, trackers section: the reader's accounts on AniList, MyAnimeList, MangaUpdates and Kitsu (sign in through
// the tracker's page or with a user name and password; sign out) and the series linked to tracker entries. Hidden
// entirely when the admin enabled no tracker.
import { el, byId } from './dom.js';
import { getJson, postJson, request } from './api.js';
import { entryLink, progressText, lastSync, syncState, pullOffer, safeUrl } from './tracker-link.js';

const PATH = '/api/me/trackers';
let trackers = [];

function say(text, kind = 'ok') {
  const message = byId('trackers-message');
  message.className = `notice ${kind}`;
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  message.textContent = text;
}

function nameOf(id) {
  const tracker = trackers.find((t) => t.id === id);
  return (tracker && tracker.name) || id;
}

/** Fills the profile page's trackers section; the page itself (session, header) is started by profile.js. */
export async function startTrackers() {
  const section = byId('trackers');
  let answer;
  try {
    answer = await getJson(PATH);
  } catch (e) {
    // A reader without the tracker feature answers 404: nothing to show, as when no tracker is enabled.
    if (e.redirecting || e.status === 404) return;
    section.hidden = false;
    say(e.message, 'error');
    return;
  }
  trackers = (answer && answer.trackers) || [];
  if (trackers.length === 0) return;
  section.hidden = false;
  drawTrackers();
  showCallbackOutcome();
  await refreshLinks();
}

/** The outcome of a tracker's sign-in page, which sends the browser back here with it in the query; shown once. */
function showCallbackOutcome() {
  const query = new URLSearchParams(location.search);
  const tracker = query.get('tracker');
  if (!tracker) return;
  const error = query.get('error');
  if (error) say(`${nameOf(tracker)}: ${error}`, 'error');
  else if (query.get('signedIn') === '1') say(`Signed in to ${nameOf(tracker)}.`);
  for (const key of ['tracker', 'signedIn', 'error']) query.delete(key);
  const rest = query.toString();
  history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
}

async function refreshTrackers() {
  const answer = await getJson(PATH);
  trackers = (answer && answer.trackers) || [];
  drawTrackers();
}

function drawTrackers() {
  byId('tracker-rows').replaceChildren(...trackers.flatMap(trackerRows));
}

function stateCell(t) {
  if (t.needsSignIn) {
    return el('td', { class: 'tracker-state' }, el('span', { class: 'tracker-warning',
      text: `Needs sign-in again${t.problem ? ` — ${t.problem}` : ''}` }));
  }
  const cell = el('td', { class: 'tracker-state', text: t.signedIn ? `Signed in as ${t.account || '?'}` : 'Not signed in' });
  if (t.pending) cell.append(' ', el('span', { class: 'quiet tracker-pending-count', text: `· ${t.pending} waiting to be sent` }));
  return cell;
}

/** A tracker's row and, for a password tracker, the (hidden) row with its sign-in form. */
function trackerRows(t) {
  const buttons = el('div', { class: 'row-buttons' });
  const rows = [el('tr', { class: 'tracker-row', 'data-tracker': t.id },
    el('td', { class: 'tracker-name', text: t.name || t.id }), stateCell(t), el('td', { class: 'actions-cell' }, buttons))];
  if (!t.signedIn || t.needsSignIn) {
    const signIn = el('button', { type: 'button', id: `tracker-sign-in-${t.id}`, class: 'small primary tracker-sign-in',
      text: 'Sign in', 'aria-label': `Sign in to ${t.name}` });
    buttons.append(signIn);
    if (t.signIn === 'password') {
      const formRow = passwordRow(t);
      rows.push(formRow);
      signIn.setAttribute('aria-expanded', 'false');
      signIn.setAttribute('aria-controls', formRow.id);
      signIn.addEventListener('click', () => {
        formRow.hidden = !formRow.hidden;
        signIn.setAttribute('aria-expanded', String(!formRow.hidden));
        if (!formRow.hidden) formRow.querySelector('input').focus();
      });
    } else {
      signIn.addEventListener('click', () => authorize(t, signIn));
    }
  }
  if (t.signedIn || t.needsSignIn) {
    const signOut = el('button', { type: 'button', id: `tracker-sign-out-${t.id}`, class: 'small danger tracker-sign-out',
      text: 'Sign out', 'aria-label': `Sign out of ${t.name}` });
    signOut.addEventListener('click', () => signOutOf(t, signOut));
    buttons.append(signOut);
  }
  return rows;
}

function passwordRow(t) {
  const user = el('input', { id: `tracker-username-${t.id}`, type: 'text', autocomplete: 'off', spellcheck: 'false',
    required: true });
  const password = el('input', { id: `tracker-password-${t.id}`, type: 'password', autocomplete: 'current-password',
    required: true });
  const error = el('p', { id: `tracker-login-error-${t.id}`, class: 'form-error', role: 'alert' });
  const submit = el('button', { type: 'submit', class: 'primary', text: `Sign in to ${t.name}` });
  const form = el('form', { class: 'form-row tracker-login', 'data-tracker': t.id, novalidate: true },
    el('div', { class: 'field' }, el('label', { for: user.id, text: `${t.name} user name` }), user),
    el('div', { class: 'field' }, el('label', { for: password.id, text: `${t.name} password` }), password),
    submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    login(t, user, password, submit, error);
  });
  return el('tr', { id: `tracker-login-row-${t.id}`, class: 'tracker-login-row', hidden: true },
    el('td', { colspan: 3, 'data-label': '' }, form, error,
      el('p', { class: 'quiet', text: `Your ${t.name} password is sent to ${t.name} once to sign in and is not kept.` })));
}

async function login(t, user, password, submit, error) {
  error.textContent = '';
  const username = user.value.trim();
  if (!username || !password.value) {
    error.textContent = `Enter your ${t.name} user name and password.`;
    (username ? password : user).focus();
    return;
  }
  submit.disabled = true;
  try {
    const answer = await postJson(`${PATH}/${encodeURIComponent(t.id)}/login`, { username, password: password.value });
    password.value = '';
    say(`Signed in to ${t.name}${answer && answer.account ? ` as ${answer.account}` : ''}.`);
    await refreshTrackers();
    await refreshLinks();
  } catch (e) {
    submit.disabled = false;
    if (!e.redirecting) error.textContent = e.message;
  }
}

/** Asks the reader for the tracker's sign-in page and goes there; the tracker sends the browser back here. */
async function authorize(t, button) {
  button.disabled = true;
  try {
    const answer = await postJson(`${PATH}/${encodeURIComponent(t.id)}/authorize`, {});
    const url = safeUrl(answer && answer.url);
    if (!url) throw new Error(`The reader gave no sign-in page for ${t.name}.`);
    say(`Taking you to ${t.name} to sign in…`);
    location.href = url;
  } catch (e) {
    button.disabled = false;
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function signOutOf(t, button) {
  if (!window.confirm(`Sign out of ${t.name}? Your linked series stay linked; their updates wait until you sign in `
    + 'again.')) return;
  button.disabled = true;
  try {
    await request('DELETE', `${PATH}/${encodeURIComponent(t.id)}`);
    say(`Signed out of ${t.name}.`);
    await refreshTrackers();
    await refreshLinks();
  } catch (e) {
    button.disabled = false;
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function refreshLinks() {
  let answer;
  try {
    answer = await getJson(`${PATH}/links`);
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
    return;
  }
  const links = (answer && answer.links) || [];
  const rows = links.map((link) => {
    const trackerName = link.trackerName || nameOf(link.tracker);
    const offer = pullOffer(link.tracker, trackerName, link.series, link, {
      after: async (marked) => {
        say(`Marked ${marked === 1 ? '1 chapter' : `${marked} chapters`} of ${link.seriesTitle || link.series} read.`);
        await refreshLinks();
      },
      fail: (e) => say(e.message, 'error'),
    });
    const state = [...syncState(link), offer].filter(Boolean);
    return el('tr', { class: 'tracker-link-row', 'data-series': link.series, 'data-tracker': link.tracker },
      el('td', {}, el('a', { href: `/series.html?${new URLSearchParams({ id: link.series })}`,
        text: link.seriesTitle || link.series })),
      el('td', { text: trackerName }),
      el('td', {}, entryLink(link), link.automatic ? el('span', { class: 'quiet', text: ' · automatic' }) : null),
      el('td', { class: 'tracker-progress', text: progressText(link) }),
      el('td', {}, lastSync(link)),
      el('td', { class: 'tracker-sync-state' }, ...state.flatMap((part, i) => (i ? [' ', part] : [part]))));
  });
  if (rows.length === 0) {
    rows.push(el('tr', {}, el('td', { colspan: 6, 'data-label': '', class: 'quiet',
      text: 'No linked series yet: link one with the Trackers button on its series page.' })));
  }
  byId('tracker-link-rows').replaceChildren(...rows);
}
