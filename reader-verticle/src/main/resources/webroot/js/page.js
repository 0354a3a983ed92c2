// Page start-up shared by the signed-in pages: load the session, draw the header, run the page, show failures.
import { loadSession } from './api.js';
import { renderNav } from './nav.js';

/** Shows an error in `#page-error` (created when missing); redirects to login show nothing. */
export function showPageError(error) {
  if (error && error.redirecting) return;
  let box = document.getElementById('page-error');
  if (!box) {
    box = document.createElement('div');
    box.id = 'page-error';
    box.className = 'notice error';
    box.setAttribute('role', 'alert');
    (document.querySelector('main') || document.body).prepend(box);
  }
  box.hidden = false;
  box.textContent = (error && error.message) || String(error);
}

/** Loads the session, renders the header, then calls `run(me)`; any failure is shown, never thrown. */
export async function startPage(current, run) {
  let me;
  try {
    me = await loadSession();
  } catch (e) {
    showPageError(e);
    return;
  }
  renderNav(me, current);
  try {
    await run(me);
  } catch (e) {
    showPageError(e);
  }
}
