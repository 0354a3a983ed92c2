// Service worker (same origin, scope /): serves what "Download for offline" stored when the network is gone. Page
// images of stored chapters come from `mc-pages` first; this user's answers needed to open them (session, library and
// series lists, chapter details, covers, reading settings) are refreshed from the network and kept in `mc-data` only
// while something is stored; the reader's pages and scripts in `mc-app-<version>`, named by the server's version
// (`?v=` of this script, from GET /api/system/info), so an upgrade installs a new worker and drops the old copies.
// Admin pages and the admin API pass straight through and are never kept. Cache names repeat js/offline-index.js.
const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev';
const APP = `mc-app-${VERSION}`;
const PAGES = 'mc-pages';
const DATA = 'mc-data';

/** What the library, series and reader pages need to start offline (ServiceWorkerAssetsTest keeps it complete). */
const ASSETS = ['/', '/index.html', '/series.html', '/read.html', '/offline.html', '/manifest.webmanifest',
  '/css/app.css', '/css/reader.css', '/img/logo.svg', '/img/icon-192.png', '/img/icon-512.png',
  '/js/theme.js', '/js/install.js', '/js/api.js', '/js/dom.js', '/js/page.js', '/js/nav.js', '/js/covers.js',
  '/js/library.js', '/js/collection-editor.js', '/js/series.js', '/js/series-alerts.js', '/js/series-trackers.js',
  '/js/tracker-link.js',
  '/js/offline.js', '/js/offline-index.js', '/js/offline-shelf.js', '/js/read.js', '/js/reader/prefs.js',
  '/js/reader/progress.js', '/js/reader/preload.js', '/js/reader/view.js', '/js/reader/input.js',
  '/js/reader/spreads.js', '/js/reader/crop.js', '/js/reader/chrome.js', '/js/reader/settings-bar.js',
  '/js/reader/end.js'];

/** After a request failed, kept copies are given without asking the network for this long (a page's many requests). */
const FAILED_MS = 2000;
let failedAt = 0;

const PAGE_IMAGE = /^\/api\/series\/[^/]+\/chapters\/[^/]+\/pages\/[^/]+$/;
const CHAPTER = /^\/api\/series\/[^/]+\/chapters\/[^/.]+$/;
const KEPT = [/^\/api\/me$/, /^\/api\/series$/, /^\/api\/series\/[^/]+$/, /^\/api\/series\/[^/]+\/cover$/,
  /^\/api\/series\/[^/]+\/reading-settings$/, /^\/api\/progress$/, /^\/api\/catalog$/];

self.addEventListener('install', (event) => {
  // A new version refills its copy of the app when the old one was in use (something is stored).
  event.waitUntil(caches.has(PAGES).then((inUse) => (inUse ? fillApp() : undefined)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith('mc-app-') && n !== APP).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'store-assets') {
    event.waitUntil(fillApp().then(() => event.ports[0] && event.ports[0].postMessage({ ok: true, version: VERSION })));
  }
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.startsWith('/admin/') || path.startsWith('/api/admin/') || path.startsWith('/eventbus')) return;
  if (PAGE_IMAGE.test(path)) {
    event.respondWith(storedFirst(request));
  } else if (path.startsWith('/api/')) {
    if (KEPT.some((r) => r.test(path))) event.respondWith(networkThenKeep(request, DATA, { whenStored: true }));
    else if (CHAPTER.test(path)) event.respondWith(networkThenKeep(request, DATA, { onlyKnown: true }));
  } else if (!path.startsWith('/opds') && !path.startsWith('/komga') && !path.startsWith('/webjars')) {
    event.respondWith(networkThenKeep(request, APP, { ignoreSearch: request.mode === 'navigate' }));
  }
});

async function fillApp() {
  const cache = await caches.open(APP);
  await Promise.allSettled(ASSETS.map((path) => cache.add(new Request(path, { cache: 'no-cache' }))));
}

/** A stored page image without asking the network; any other from the network as usual. */
async function storedFirst(request) {
  return (await caches.match(request, { cacheName: PAGES })) || fetch(request);
}

/**
 * The network's answer, a copy kept when `cacheName` is in use (the app cache once filled; data while something is
 * stored, or only answers already kept with `onlyKnown`); the kept copy when the network fails.
 */
async function networkThenKeep(request, cacheName, { whenStored = false, onlyKnown = false, ignoreSearch = false } = {}) {
  if (self.navigator.onLine === false || Date.now() - failedAt < FAILED_MS) {
    // No network (flight mode, or a request just failed): the kept copy at once, without a request failing first.
    const kept = await caches.match(request, { cacheName, ignoreSearch });
    if (kept) return kept;
  }
  try {
    const response = await fetch(request);
    failedAt = 0;
    if (response.ok && response.type === 'basic') await keep(request, response.clone(), cacheName, { whenStored, onlyKnown });
    return response;
  } catch (e) {
    failedAt = Date.now();
    const kept = await caches.match(request, { cacheName, ignoreSearch });
    if (kept) return kept;
    throw e;
  }
}

async function keep(request, response, cacheName, { whenStored, onlyKnown }) {
  if (!(await caches.has(cacheName))) {
    if (cacheName !== DATA || !whenStored || !(await caches.has(PAGES))) return;
  }
  const cache = await caches.open(cacheName);
  if (onlyKnown && !(await cache.match(request))) return;
  if (new URL(request.url).pathname === '/api/me') {
    // Another user on this browser: nothing the previous one stored may be shown to them.
    const before = await cache.match(request);
    const now = await response.clone().json().catch(() => null);
    const was = before ? await before.json().catch(() => null) : null;
    if (was && now && was.username !== now.username) {
      await Promise.all([caches.delete(DATA), caches.delete(PAGES)]);
      return;
    }
  }
  await cache.put(request, response);
}
