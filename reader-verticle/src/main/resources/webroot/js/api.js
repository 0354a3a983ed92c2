// JSON API client: the session's CSRF token on changes, 401 sends the browser to login, errors become ApiError.
import { forgetDevice } from './offline-index.js';

let csrfToken = '';
let username = '';

/** A failed API call; `message` is the server's own message when it sent one. */
export class ApiError extends Error {
  constructor(status, code, message, redirecting = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.redirecting = redirecting;
  }
}

/** The login page, asked to come back to the current page afterwards. */
export function loginPath() {
  return '/login.html?next=' + encodeURIComponent(location.pathname + location.search);
}

/** `/api/series/<id>` with every id encoded. */
export function seriesPath(seriesId, ...rest) {
  return ['/api/series', seriesId, ...rest].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/');
}

/**
 * Calls the API. Options: body (sent as JSON), keepalive, redirectOn401 (default true).
 * Resolves with the parsed JSON (null for an empty answer); rejects with ApiError.
 */
export async function request(method, path, { body, keepalive = false, redirectOn401 = true } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      keepalive,
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  if (response.status === 401 && redirectOn401) {
    location.assign(loginPath());
    throw new ApiError(401, 'unauthorized', 'Your session has ended. Taking you to the login page…', true);
  }
  const text = await response.text().catch(() => '');
  let json = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch (e) {
      json = null;
    }
  }
  if (!response.ok) {
    const message = json && typeof json.message === 'string' && json.message
      ? json.message : `The server answered ${response.status} ${response.statusText}`.trim() + '.';
    const code = json && typeof json.error === 'string' ? json.error : `http_${response.status}`;
    throw new ApiError(response.status, code, message.charAt(0).toUpperCase() + message.slice(1));
  }
  return json;
}

export const getJson = (path) => request('GET', path);
export const postJson = (path, body, options) => request('POST', path, { ...options, body });
export const putJson = (path, body, options) => request('PUT', path, { ...options, body });

/** GET /api/me; remembers the CSRF token for later changes. */
export async function loadSession() {
  const me = await getJson('/api/me');
  csrfToken = (me && me.csrfToken) || '';
  username = (me && me.username) || '';
  return me;
}

/** The user loadSession() found, '' before. */
export function signedInUser() {
  return username;
}

/** Remembers the CSRF token handed out by POST /api/login. */
export function setCsrfToken(token) {
  csrfToken = token || '';
}

/**
 * Ends the session and goes to the login page, after sending the positions queued offline and removing everything
 * kept for offline reading (a shared device keeps nothing of this user).
 */
export async function logout() {
  await import('./reader/progress.js').then((m) => m.flushQueue()).catch(() => {});
  let next = '/login.html';
  try {
    const answer = await request('POST', '/api/logout', { redirectOn401: false });
    // With single sign-on, the provider's own logout (which comes back to the login page).
    if (answer && typeof answer.next === 'string' && /^https?:\/\//.test(answer.next)) next = answer.next;
  } catch (e) {
    if (e.status !== 401) throw e;
  }
  await forgetDevice().catch((e) => console.warn('offline copies not removed:', e.message));
  location.assign(next);
}
