// Login page: POST /api/login, then go back to the page that sent us here (same-origin paths only).
import { postJson, setCsrfToken } from './api.js';

/** The `next` parameter when it is a path on this site, else '/'. */
export function safeNext(raw) {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return '/';
  if (/[\u0000-\u001f\u007f]/.test(raw)) return '/';
  try {
    const url = new URL(raw, location.origin);
    if (url.origin !== location.origin) return '/';
    if (url.pathname.startsWith('/login.html')) return '/';
    return url.pathname + url.search + url.hash;
  } catch (e) {
    return '/';
  }
}

const form = document.getElementById('login-form');
const username = document.getElementById('username');
const password = document.getElementById('password');
const button = document.getElementById('login-button');
const error = document.getElementById('login-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  if (!username.value.trim() || !password.value) {
    error.textContent = 'Enter your user name and password.';
    (username.value.trim() ? password : username).focus();
    return;
  }
  button.disabled = true;
  button.textContent = 'Signing in…';
  try {
    const me = await postJson('/api/login', { username: username.value.trim(), password: password.value },
      { redirectOn401: false });
    setCsrfToken(me && me.csrfToken);
    location.replace(safeNext(new URLSearchParams(location.search).get('next')));
  } catch (e) {
    if (e.status === 401) {
      error.textContent = e.message || 'Wrong user name or password.';
      password.select();
    } else if (e.status === 429) {
      error.textContent = e.message || 'Too many failed logins. Wait a while and try again.';
    } else {
      error.textContent = e.message;
    }
    button.disabled = false;
    button.textContent = 'Sign in';
  }
});
