// Profile page, change password section: the signed-in user's own password, given the current one
// (PUT /api/me/password); the user's other sessions end, this one stays.
import { byId } from './dom.js';
import { getJson, putJson } from './api.js';

/** The rules an account password follows on the server (an admin's reset too). */
const MIN_LENGTH = 8;

const message = byId('own-password-message');
const error = byId('own-password-error');

function fail(text, field) {
  error.textContent = text;
  if (field) field.focus();
}

async function change(event) {
  event.preventDefault();
  error.textContent = '';
  message.textContent = '';
  const current = byId('own-password-current');
  const password = byId('own-password-new');
  const repeat = byId('own-password-repeat');
  if (!current.value) return fail('Give your current password.', current);
  if (password.value.length < MIN_LENGTH) return fail(`A password has at least ${MIN_LENGTH} characters.`, password);
  if (!password.value.trim()) return fail('A password of only spaces is not a password.', password);
  if (password.value !== repeat.value) return fail('The two new passwords differ: type the same one twice.', repeat);
  const button = byId('own-password-save');
  button.disabled = true;
  try {
    await putJson('/api/me/password', { current: current.value, password: password.value });
    for (const input of [current, password, repeat]) input.value = '';
    message.className = 'notice ok';
    message.textContent = 'Password changed. Your other browsers are signed out; this one stays signed in.';
  } catch (e) {
    if (e.redirecting) return;
    if (e.status === 403) fail('That is not your current password.', current);
    else fail(e.message, e.status === 400 ? password : null);
  } finally {
    button.disabled = false;
  }
}

async function start() {
  byId('own-password-form').addEventListener('submit', change);
  // Password managers pair the new password with the account's name.
  const me = await getJson('/api/me').catch(() => null);
  if (me) byId('own-password-user').value = me.username;
}

start();
