// The health page's words: the states the services send, said as an operator reads them (the raw state stays in the
// page's data attributes for scripts and tests).

const SERVICE = {
  starting: 'starting',
  up: 'running',
  restarting: 'restarting after a crash',
  'repair-required': 'stopped: a file needs repair',
  blocked: 'stopped: a state file needs repair',
  stopped: 'stopped',
};

/** The reader's own state and whether the scraper answers over the event bus. */
const READER = { up: 'running' };
const SCRAPER = { reachable: 'running', unreachable: 'not answering' };

const LIBRARY = {
  ready: 'ready',
  refreshing: 'looking for changes',
  stale: 'list from the last start, being checked',
  updated: 'ready (just changed)',
  error: 'cannot be read',
};

const SOURCE = {
  closed: 'source OK',
  half_open: 'source trying again after failures',
  open: 'source failing: resting before the next try',
};

/** Job states of the failed list, as headings. */
const JOB = {
  retry_wait: 'Waiting to retry',
  unavailable: 'Not available at the source',
  quarantined: 'Set aside after repeated failures',
  paused: 'Paused',
  requeued: 'Queued again',
};

const INCIDENT = {
  network: 'network or site error',
  unavailable: 'title not available',
  parser: 'page not understood',
  storage: 'disk problem',
  access: 'refused by the site',
  stall: 'download stalled',
  crash: 'crash',
  unknown: 'unexpected error',
};

const plain = (table, word) => (word == null ? '' : table[word] || String(word).replaceAll('_', ' '));

export const serviceWords = (state) => plain(SERVICE, state);
export const readerWords = (status) => plain(READER, status);
export const scraperWords = (status) => plain(SCRAPER, status);
export const libraryWords = (state) => plain(LIBRARY, state);
export const sourceWords = (circuit) => plain(SOURCE, circuit);
export const jobWords = (state) => plain(JOB, state);
export const incidentWords = (kind) => plain(INCIDENT, kind);

/** "job retry_wait" → "job waiting to retry": an action names a job state. */
export function actionWords(action) {
  return String(action || '').replace(/\b(retry_wait|unavailable|quarantined|paused|requeued)\b/,
    (state) => jobWords(state).toLowerCase());
}

/** The scraper's memory watch: downloads pause while memory is short. */
export function memoryWords(yieldReason) {
  return yieldReason ? `Memory: short, downloads paused (${yieldReason})` : 'Memory: fine';
}
