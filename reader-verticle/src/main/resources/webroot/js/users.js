// Admin users page: list accounts, create one, reset a password, disable or enable an account, set what it may see.
import { el, byId, ago, fullDate } from './dom.js';
import { getJson, postJson, putJson, ApiError } from './api.js';
import { startPage } from './page.js';

const NAME = /^[A-Za-z0-9._-]{1,64}$/;
const LIBRARY = /^[a-z0-9-]{1,32}$/;
const LIMITS = [['none', 'No limit'], ['all', 'All ages'], ['9', '9+'], ['12', '12+'], ['15', '15+'], ['18', '18+']];
const tbody = document.querySelector('#users-table tbody');
const message = byId('users-message');
const rows = new Map();
let me = null;

startPage('users', async (user) => {
  me = user;
  if (!(await reload())) return;
  byId('users-panel').hidden = false;
  byId('create-form').addEventListener('submit', createUser);
});

const userPath = (name, what) => `/api/admin/users/${encodeURIComponent(name)}/${what}`;

function say(text, kind = 'ok') {
  message.className = `notice ${kind}`;
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  message.textContent = text;
}

/** Shows the "Admins only" notice for a 403, else the error; true when the error was handled that way. */
function showFailure(e) {
  if (e.redirecting) return;
  if (e.status === 403) {
    const forbidden = byId('forbidden');
    forbidden.textContent = `Admins only. This page needs an administrator account${me ? `; you are signed in as ${me.username}` : ''}.`;
    forbidden.hidden = false;
    const panel = byId('users-panel');
    if (panel) panel.remove();
    return;
  }
  say(e.message, 'error');
}

/** Loads the list and draws it; false when it could not be loaded. */
async function reload() {
  let answer;
  try {
    answer = await getJson('/api/admin/users');
  } catch (e) {
    showFailure(e);
    return false;
  }
  draw((answer && answer.users) || []);
  return true;
}

function draw(users) {
  const seen = new Set();
  const nodes = [];
  for (const u of users) {
    seen.add(u.username);
    let row = rows.get(u.username);
    if (!row) {
      row = makeRow(u.username);
      rows.set(u.username, row);
    }
    updateRow(row, u);
    nodes.push(row);
    if (row.resetRow && row.resetRow.isConnected) nodes.push(row.resetRow);
    if (row.accessRow && row.accessRow.isConnected) nodes.push(row.accessRow);
  }
  for (const name of [...rows.keys()]) if (!seen.has(name)) rows.delete(name);
  tbody.replaceChildren(...nodes);
  const disabled = users.filter((u) => u.disabled).length;
  byId('users-summary').textContent = `${users.length} account${users.length === 1 ? '' : 's'}`
    + (disabled ? `, ${disabled} disabled` : '');
}

function makeRow(username) {
  const reset = el('button', { type: 'button', class: 'small reset-password', text: 'Reset password' });
  const toggle = el('button', { type: 'button', class: 'small toggle-disabled' });
  const access = el('button', { type: 'button', class: 'small change-access', text: 'Access' });
  const row = el('tr', { class: 'user-row', 'data-username': username },
    el('th', { scope: 'row' }, el('span', { class: 'user-name', text: username }),
      me && me.username === username ? el('span', { class: 'you', text: '(you)' }) : null),
    el('td', { class: 'role' }),
    el('td', { class: 'status' }, el('span', { class: 'status-pill' })),
    el('td', { class: 'created' }),
    el('td', { class: 'access' }),
    el('td', { class: 'actions-cell' }, el('div', { class: 'row-buttons' }, access, reset, toggle)));
  reset.addEventListener('click', () => openReset(row));
  access.addEventListener('click', () => openAccess(row));
  toggle.addEventListener('click', () => toggleDisabled(row, toggle));
  return row;
}

function updateRow(row, u) {
  row.dataset.disabled = String(Boolean(u.disabled));
  row.dataset.role = u.role;
  row.querySelector('.role').textContent = u.role === 'admin' ? 'Admin' : 'Reader';
  row.querySelector('.status-pill').textContent = u.disabled ? 'Disabled' : 'Active';
  const created = row.querySelector('.created');
  created.textContent = ago(u.createdAt);
  created.title = fullDate(u.createdAt);
  const toggle = row.querySelector('.toggle-disabled');
  toggle.textContent = u.disabled ? 'Enable' : 'Disable';
  toggle.classList.toggle('danger', !u.disabled);
  toggle.setAttribute('aria-label', `${u.disabled ? 'Enable' : 'Disable'} ${u.username}`);
  row.querySelector('.reset-password').setAttribute('aria-label', `Reset password of ${u.username}`);
  row.querySelector('.change-access').setAttribute('aria-label', `Access of ${u.username}: change what they may see`);
  if (u.access) {
    row.access = u.access;
    row.querySelector('.access').textContent = accessText(u.role, u.access);
  }
}

/** One line saying what an account sees. */
function accessText(role, a) {
  if (role === 'admin') return 'Everything (admin)';
  const libraries = a.libraries === 'all' ? 'All libraries'
    : a.libraries.length ? a.libraries.join(', ') : 'No library';
  if (a.ageLimit === 'none') return `${libraries}; no age limit`;
  const limit = (LIMITS.find(([v]) => v === a.ageLimit) || [a.ageLimit, a.ageLimit])[1];
  return `${libraries}; up to ${limit}, unrated ${a.unratedShown ? 'shown' : 'hidden'}`;
}

async function createUser(event) {
  event.preventDefault();
  const username = byId('new-username').value.trim();
  const password = byId('new-password').value;
  const role = byId('new-role').value;
  if (!NAME.test(username)) {
    say('User names are 1–64 letters, digits, dots, dashes or underscores.', 'error');
    byId('new-username').focus();
    return;
  }
  if (password.length < 8) {
    say('The password needs at least 8 characters.', 'error');
    byId('new-password').focus();
    return;
  }
  const button = byId('create-user');
  button.disabled = true;
  try {
    await postJson('/api/admin/users', { username, password, role });
    byId('create-form').reset();
    say(`Created ${role === 'admin' ? 'admin' : 'reader'} account “${username}”.`);
    await reload();
  } catch (e) {
    showFailure(e.code === 'exists' ? new ApiError(e.status, e.code, `There is already an account named “${username}”.`) : e);
  } finally {
    button.disabled = false;
  }
}

/** An inline form under the row to set a new password. */
function openReset(row) {
  const username = row.dataset.username;
  if (row.resetRow && row.resetRow.isConnected) {
    row.resetRow.querySelector('input').focus();
    return;
  }
  const input = el('input', {
    type: 'password', class: 'reset-password-input', autocomplete: 'new-password', minlength: 8,
    'aria-label': `New password for ${username}`, placeholder: 'New password (8+ characters)',
  });
  const save = el('button', { type: 'submit', class: 'small primary reset-password-save', text: 'Set password' });
  const cancel = el('button', { type: 'button', class: 'small reset-password-cancel', text: 'Cancel' });
  // The hidden user name lets password managers file the new password under the right account.
  const hiddenName = el('input', { type: 'text', autocomplete: 'username', value: username, hidden: true, readonly: true });
  const form = el('form', { novalidate: true }, hiddenName,
    el('span', { text: `New password for ${username}` }), input, save, cancel);
  const resetRow = el('tr', { class: 'reset-row', 'data-username': username }, el('td', { colspan: 6 }, form));
  row.resetRow = resetRow;
  row.after(resetRow);
  input.focus();
  cancel.addEventListener('click', () => resetRow.remove());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (input.value.length < 8) {
      say('The password needs at least 8 characters.', 'error');
      input.focus();
      return;
    }
    save.disabled = true;
    try {
      await putJson(userPath(username, 'password'), { password: input.value });
      resetRow.remove();
      say(`Password of “${username}” changed; their sessions and app passwords were ended.`);
    } catch (e) {
      showFailure(e);
      save.disabled = false;
    }
  });
}

async function toggleDisabled(row, button) {
  const username = row.dataset.username;
  const disable = row.dataset.disabled !== 'true';
  button.disabled = true;
  try {
    const user = await putJson(userPath(username, 'disabled'), { disabled: disable });
    if (user && user.username) updateRow(row, user);
    say(disable ? `Disabled “${username}”; their sessions were ended.` : `Enabled “${username}”.`);
    await reload();
  } catch (e) {
    if (e.code === 'last_admin') say('That would leave no enabled admin account.', 'error');
    else if (e.code === 'self') say('You cannot disable your own account.', 'error');
    else showFailure(e);
  } finally {
    button.disabled = false;
  }
}

/** An inline form under the row to set the libraries and age limit of an account. */
function openAccess(row) {
  const username = row.dataset.username;
  if (row.accessRow && row.accessRow.isConnected) {
    row.accessRow.querySelector('input').focus();
    return;
  }
  const a = row.access || { libraries: 'all', ageLimit: 'none', unratedShown: false };
  const id = `access-${username}`;
  const all = el('input', { type: 'radio', name: `${id}-scope`, id: `${id}-all`, value: 'all' });
  const some = el('input', { type: 'radio', name: `${id}-scope`, id: `${id}-some`, value: 'some' });
  all.checked = a.libraries === 'all';
  some.checked = !all.checked;
  const names = el('input', {
    type: 'text', id: `${id}-names`, class: 'access-libraries', autocomplete: 'off', autocapitalize: 'none',
    spellcheck: 'false', value: a.libraries === 'all' ? '' : a.libraries.join(', '),
    'aria-describedby': `${id}-names-hint`,
  });
  const limit = el('select', { id: `${id}-limit`, class: 'access-age-limit' },
    ...LIMITS.map(([value, text]) => el('option', { value, text })));
  limit.value = a.ageLimit;
  const unrated = el('input', { type: 'checkbox', id: `${id}-unrated`, class: 'access-unrated' });
  unrated.checked = a.ageLimit !== 'none' && a.unratedShown;
  const syncUnrated = () => { unrated.disabled = limit.value === 'none'; };
  syncUnrated();
  limit.addEventListener('change', syncUnrated);
  const save = el('button', { type: 'submit', class: 'small primary access-save', text: 'Save access' });
  const cancel = el('button', { type: 'button', class: 'small access-cancel', text: 'Cancel' });
  const form = el('form', { class: 'access-form', novalidate: true },
    el('fieldset', {},
      el('legend', { text: `What ${username} may see${row.dataset.role === 'admin' ? ' (admins see everything anyway)' : ''}` }),
      el('div', { class: 'access-choice' }, all, el('label', { for: `${id}-all`, text: 'Every library' })),
      el('div', { class: 'access-choice' }, some, el('label', { for: `${id}-some`, text: 'Only these libraries:' }),
        el('label', { for: `${id}-names`, class: 'visually-hidden', text: `Libraries ${username} may see` }), names),
      el('p', { id: `${id}-names-hint`, class: 'quiet', text: 'Library names separated by commas, e.g. downloads, comics.' }),
      el('div', { class: 'access-choice' }, el('label', { for: `${id}-limit`, text: 'Age limit' }), limit),
      el('div', { class: 'access-choice' }, unrated,
        el('label', { for: `${id}-unrated`, text: 'Show series without an age rating' }))),
    save, cancel);
  names.addEventListener('input', () => { some.checked = true; });
  const accessRow = el('tr', { class: 'access-row', 'data-username': username }, el('td', { colspan: 6 }, form));
  row.accessRow = accessRow;
  (row.resetRow && row.resetRow.isConnected ? row.resetRow : row).after(accessRow);
  (all.checked ? all : names).focus();
  cancel.addEventListener('click', () => accessRow.remove());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const list = names.value.split(',').map((n) => n.trim()).filter((n) => n);
    if (some.checked && list.some((n) => !LIBRARY.test(n))) {
      say('Library names are 1–32 lower-case letters, digits or dashes.', 'error');
      names.focus();
      return;
    }
    save.disabled = true;
    try {
      const saved = await putJson(userPath(username, 'access'), {
        libraries: all.checked ? 'all' : list, ageLimit: limit.value, unratedShown: unrated.checked,
      });
      accessRow.remove();
      say(`Saved what “${username}” may see.`);
      if (saved) {
        row.access = saved;
        row.querySelector('.access').textContent = accessText(row.dataset.role, saved);
      }
    } catch (e) {
      showFailure(e);
      save.disabled = false;
    }
  });
}
