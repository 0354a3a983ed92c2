// What this browser keeps for offline reading: the cache names (sw.js repeats them), the list of stored chapters (per
// signed-in user, in localStorage), and forgetting all of it (log out, or another user on this browser).

/** Page images of stored chapters. */
export const PAGES_CACHE = 'mc-pages';
/** This user's API answers kept to open stored chapters offline (session, lists, chapter details). */
export const DATA_CACHE = 'mc-data';
/** Every cache of ours starts so: the reader's assets live in `mc-app-<server version>`. */
export const CACHE_PREFIX = 'mc-';

const INDEX_KEY = 'mc.offline';
/** The progress queue's key (reader/progress.js), cleared with the rest. */
export const QUEUE_KEY = 'mc.progress.queue';

/** The stored chapters of `user`: `{series: {<id>: {title, chapters: {<id>: {name, pages, bytes, storedAt}}}}}`. */
export function readIndex(user) {
  try {
    const index = JSON.parse(localStorage.getItem(INDEX_KEY) || 'null');
    if (index && index.user === user && index.series && typeof index.series === 'object') return index;
  } catch (e) {
    // a damaged index is treated as empty; its caches are found and removed on the next store or log out
  }
  return { user, series: {} };
}

export function writeIndex(index) {
  localStorage.setItem(INDEX_KEY, JSON.stringify(index));
}

/** Removes every stored chapter, kept answer, app copy and queued position from this browser. */
export async function forgetDevice() {
  try {
    localStorage.removeItem(INDEX_KEY);
    localStorage.removeItem(QUEUE_KEY);
  } catch (e) {
    // storage off: nothing was kept there
  }
  if (!('caches' in self)) return;
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(CACHE_PREFIX)).map((n) => caches.delete(n)));
}

/** Takes a stored chapter away: its pages, its details; the caches themselves once nothing is stored. */
export async function removeChapter(owner, series, chapterId) {
  const index = readIndex(owner);
  const entry = index.series[series] && index.series[series].chapters[chapterId];
  if (entry) {
    const pages = await caches.open(PAGES_CACHE);
    await Promise.all(entry.urls.map((url) => pages.delete(url)));
    delete index.series[series].chapters[chapterId];
    if (!Object.keys(index.series[series].chapters).length) delete index.series[series];
  }
  const details = `/api/series/${encodeURIComponent(series)}/chapters/${encodeURIComponent(chapterId)}`;
  await (await caches.open(DATA_CACHE)).delete(details);
  writeIndex(index);
  if (!Object.keys(index.series).length) await Promise.all([caches.delete(PAGES_CACHE), caches.delete(DATA_CACHE)]);
}

/** "12.3 MB" */
export function formatBytes(bytes) {
  if (!bytes) return '0 MB';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
