// Makes the reader installable and offline-capable: registers the service worker at the root scope under the server's
// version (GET /api/system/info; a new version installs a new worker, which drops the old copies of the app), and
// sends the reading positions queued while offline when this page loads or the connection comes back.
import { flushQueue } from './reader/progress.js';

register();
flushQueue();
window.addEventListener('online', () => flushQueue());

async function register() {
  if (!('serviceWorker' in navigator)) return;
  let version;
  try {
    const response = await fetch('/api/system/info', { cache: 'no-store', headers: { Accept: 'application/json' } });
    version = (await response.json()).version;
  } catch (e) {
    return; // offline: the worker registered before keeps serving
  }
  if (!version) return;
  try {
    await navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`, { scope: '/' });
  } catch (e) {
    console.warn('offline reading is unavailable: the service worker was not registered:', e.message);
  }
}

/** Resolves with the active worker (waiting for it to take control of this page). */
export async function readyWorker() {
  const registration = await navigator.serviceWorker.ready;
  return registration.active;
}
