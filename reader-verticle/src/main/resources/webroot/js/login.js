// Login page: POST /api/login or the single sign-on button, then back to the page that sent us here (same-origin
// paths only).
import { postJson, request, setCsrfToken } from './api.js';

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

/** What the sign-in routes' refusals (`/login.html?error=<code>`) mean to the person signing in. */
const SSO_ERRORS = {
  provider_unavailable: 'Sign-in with the provider is unavailable right now. Try again in a minute.',
  provider_refused: 'The sign-in provider did not sign you in.',
  no_pending_sign_in: 'The sign-in was not started from this browser, or took too long. Try again.',
  state_mismatch: 'The sign-in could not be matched to this browser. Try again.',
  sign_in_expired: 'The sign-in took too long. Try again.',
  account_exists: 'An account with your name already exists here. An admin can allow linking it to your sign-in.',
  account_disabled: 'Your account is disabled on this server. Ask an admin to enable it.',
  no_username: 'The sign-in provider did not send a user name. Ask an admin to check the single sign-on setup.',
  userinfo_failed: 'The sign-in provider did not send your account details. Try again, or ask an admin to check the '
    + 'single sign-on setup.',
  internal_error: 'The server could not complete the sign-in. Try again later.',
};

function showSignInError() {
  const code = new URLSearchParams(location.search).get('error');
  if (!code) return;
  error.textContent = SSO_ERRORS[code] || 'The sign-in with the provider was refused. Try again, or ask an admin '
    + '(the server logged why).';
}

/** Shows the provider's button when single sign-on is set up, and hides the password form when it is off. */
async function showSignInOptions() {
  let options;
  try {
    options = await request('GET', '/api/login/options', { redirectOn401: false });
  } catch (e) {
    return;
  }
  const provider = options && options.provider;
  if (provider) {
    const ssoButton = document.getElementById('sso-button');
    ssoButton.textContent = provider.label;
    ssoButton.href = provider.start + '?return=' + encodeURIComponent(safeNext(new URLSearchParams(location.search)
      .get('next')));
    if (!provider.available) {
      ssoButton.setAttribute('aria-disabled', 'true');
      ssoButton.removeAttribute('href');
      document.getElementById('sso-note').textContent = 'Sign-in with the provider is unavailable right now.';
    }
    document.getElementById('sso').hidden = false;
  }
  if (options && options.passwordLogin === false) {
    document.getElementById('password-login').hidden = true;
    button.hidden = true;
  }
}

/**
 * Sent here to sign in for a page (`next`) but already signed in: straight on to it. After a provider's sign-in the
 * browser arrives here when the page it returned to (an admin page) needs the session cookie, which is SameSite=Strict
 * and so not sent on the provider's cross-site redirects; this navigation starts from our own page, and it is.
 */
async function forwardWhenSignedIn() {
  const params = new URLSearchParams(location.search);
  if (params.get('error') || !params.get('next')) return;
  try {
    await request('GET', '/api/me', { redirectOn401: false });
    location.replace(safeNext(new URLSearchParams(location.search).get('next')));
  } catch (e) {
    // Not signed in: this page is where to do it.
  }
}

showSignInError();
showSignInOptions();
forwardWhenSignedIn();

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (document.getElementById('password-login').hidden) return;
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
