// Profile page: the signed-in user's app passwords for reading apps (create, shown once; list; revoke) and, through
// alerts.js, where their new-chapter alerts go and, through trackers.js, their tracker accounts and linked series.
import { el, byId, ago, fullDate, toast } from './dom.js';
import { getJson, postJson, request } from './api.js';
import { startPage } from './page.js';
import { startAlerts } from './alerts.js';
import { startTrackers } from './trackers.js';

const PATH = '/api/me/app-passwords';

/** What each scope lets an app do, as the page names it. */
const SCOPES = { read: 'Read', 'read+progress': 'Read and sync progress' };

/** A scope's name on the page (an unknown one as the server sent it). */
function scopeLabel(scope) {
  return SCOPES[scope] || scope || SCOPES.read;
}

startPage('profile', async (me) => {
  byId('profile-user').textContent = me.username;
  byId('opds-url').textContent = `${location.origin}/opds/v1.2/catalog`;
  byId('app-password-form').addEventListener('submit', (event) => {
    event.preventDefault();
    create();
  });
  await Promise.all([refresh(), startAlerts(), startTrackers()]);
});

async function refresh() {
  const answer = await getJson(PATH);
  const list = (answer && answer.appPasswords) || [];
  const rows = list.map((p) => {
    const revoke = el('button', { type: 'button', class: 'small danger revoke', text: 'Revoke',
      'aria-label': `Revoke app password ${p.name}` });
    revoke.addEventListener('click', () => remove(p, revoke));
    // Only app passwords made with a sync key answer KOReader's sync server (those made before it existed do not).
    const scope = el('td', { class: 'app-password-scope', text: scopeLabel(p.scope) });
    if (p.koreaderSync) {
      scope.append(' ', el('span', { class: 'quiet koreader-sync', text: '· KOReader sync',
        title: 'KOReader can sync progress with this app password' }));
    }
    return el('tr', { 'data-app-password-id': String(p.id) },
      el('td', { class: 'app-password-name', text: p.name }),
      scope,
      el('td', { text: ago(p.createdAt), title: fullDate(p.createdAt) }),
      el('td', { class: 'last-used', text: p.lastUsedAt ? ago(p.lastUsedAt) : 'never',
        title: p.lastUsedAt ? fullDate(p.lastUsedAt) : '' }),
      el('td', {}, revoke));
  });
  if (rows.length === 0) {
    rows.push(el('tr', {}, el('td', { colspan: 5, class: 'quiet', text: 'No app passwords yet.' })));
  }
  byId('app-password-rows').replaceChildren(...rows);
  const ended = answer && answer.endedByReset;
  const notice = byId('app-passwords-ended');
  notice.hidden = !ended;
  if (ended) {
    notice.textContent = `Your password was reset ${ago(ended.at)} (${fullDate(ended.at)}): that ended your `
      + `${ended.count === 1 ? 'app password' : `${ended.count} app passwords`}, so your reading apps can no longer `
      + 'sign in. Create a new app password for each app.';
  }
}

async function create() {
  const input = byId('app-password-name');
  const button = byId('create-app-password');
  const error = byId('app-password-error');
  error.textContent = '';
  const name = input.value.trim();
  if (!name) {
    error.textContent = 'Give the app password a name, e.g. the app and device it is for.';
    input.focus();
    return;
  }
  button.disabled = true;
  try {
    const scope = byId('app-password-scope').value;
    const created = await postJson(PATH, { name, scope });
    byId('new-app-password-name').textContent = created.name;
    byId('new-app-password-secret').textContent = created.password;
    byId('new-app-password-user').textContent = created.username;
    byId('new-app-password-scope').textContent = scopeLabel(created.scope);
    byId('new-app-password').hidden = false;
    input.value = '';
    await refresh();
  } catch (e) {
    error.textContent = e.message;
  } finally {
    button.disabled = false;
  }
}

async function remove(p, button) {
  button.disabled = true;
  try {
    await request('DELETE', `${PATH}/${encodeURIComponent(p.id)}`);
    toast(`Revoked ${p.name}: apps using it are refused from now on.`);
    byId('new-app-password').hidden = true;
    await refresh();
  } catch (e) {
    button.disabled = false;
    toast(e.message, { error: true });
  }
}
