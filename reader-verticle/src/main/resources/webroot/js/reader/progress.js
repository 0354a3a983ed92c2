// Reading position saver: PUT /api/progress/{series} a second after the page last changed, in order, flushed on hide.
// Offline, positions are queued in localStorage with when they were read, and sent in order (with "at", so the server
// never moves back behind what was read elsewhere since) once the server answers again; each is removed once sent.
import { loadSession, putJson, signedInUser } from '../api.js';
import { QUEUE_KEY } from '../offline-index.js';

const DELAY_MS = 1000;

export class ProgressSaver {
  /**
   * @param seriesId the series whose position is saved
   * @param onSaved called with {chapter, page} after the server answered 2xx, in the order of the positions
   * @param onError called with the ApiError of a failed save
   */
  constructor(seriesId, { onSaved = () => {}, onError = () => {} } = {}) {
    this.seriesId = seriesId;
    this.path = `/api/progress/${encodeURIComponent(seriesId)}`;
    this.onSaved = onSaved;
    this.onError = onError;
    this.seq = 0;
    this.pending = null;
    this.timer = 0;
    this.lastSent = null;
    this.maxSentSeq = 0;
    this.confirmedSeq = 0;
    this.chain = Promise.resolve();
  }

  /** Notes a new position; it is sent a second later unless another one replaces it first. */
  schedule(chapter, page) {
    this.pending = { chapter, page, seq: ++this.seq, at: new Date().toISOString() };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), DELAY_MS);
  }

  /** Tells the saver which position the server already has, so it is not sent again. */
  known(chapter, page) {
    this.lastSent = { chapter, page, seq: this.maxSentSeq };
  }

  /** Forgets a position not yet sent (the page already shows what the server has). */
  cancel() {
    clearTimeout(this.timer);
    this.pending = null;
  }

  /**
   * Sends the pending position now. Normally after any save still under way; with `now` (the page is being
   * hidden or closed) at once, since a queued request would never start. Resolves when it has been answered.
   */
  flush({ now = false } = {}) {
    clearTimeout(this.timer);
    const position = this.pending;
    this.pending = null;
    if (!position) return this.chain;
    if (now) {
      const sent = this.send(position);
      this.chain = Promise.all([this.chain, sent]).then(() => undefined);
      return sent;
    }
    this.chain = this.chain.then(() => this.send(position));
    return this.chain;
  }

  /** flush(), but gives up waiting after `ms` (for navigation). */
  flushWithin(ms) {
    return Promise.race([this.flush({ now: true }), new Promise((resolve) => setTimeout(resolve, ms))]);
  }

  async send(position) {
    // Never send a position older than one already sent, nor the same one twice in a row.
    if (position.seq <= this.maxSentSeq
        || (this.lastSent && position.chapter === this.lastSent.chapter && position.page === this.lastSent.page)) {
      return;
    }
    this.maxSentSeq = position.seq;
    this.lastSent = position;
    if (!navigator.onLine || readQueue().length) {
      // Behind positions still queued (or with no network): queued after them, so they reach the server in order.
      enqueue(this.seriesId, position);
      if (navigator.onLine) flushQueue();
      return;
    }
    try {
      await putJson(this.path, { chapter: position.chapter, page: position.page }, { keepalive: true });
      if (position.seq > this.confirmedSeq) {
        this.confirmedSeq = position.seq;
        this.onSaved({ chapter: position.chapter, page: position.page });
      }
    } catch (e) {
      if (e.status === 0) {
        enqueue(this.seriesId, position);
        return;
      }
      if (this.lastSent === position) this.lastSent = null;
      this.onError(e);
    }
  }
}

function readQueue() {
  try {
    const queue = JSON.parse(localStorage.getItem(QUEUE_KEY) || '[]');
    return Array.isArray(queue) ? queue : [];
  } catch (e) {
    return [];
  }
}

function writeQueue(queue) {
  if (queue.length) localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
  else localStorage.removeItem(QUEUE_KEY);
}

/** Queues a position read offline; a further page of the same chapter replaces it (a page back is kept too). */
function enqueue(seriesId, { chapter, page, at }) {
  const queue = readQueue();
  const last = queue[queue.length - 1];
  const entry = { id: `${Date.now()}-${Math.random().toString(36).slice(2)}`, user: signedInUser(), series: seriesId,
    chapter, page, at };
  if (last && last.user === entry.user && last.series === seriesId && last.chapter === chapter && page >= last.page) {
    queue[queue.length - 1] = entry;
  } else {
    queue.push(entry);
  }
  writeQueue(queue);
}

let flushing = null;

/** Sends this user's queued positions, oldest first, each once; stops at the first that cannot be sent now. */
export function flushQueue() {
  if (!flushing) flushing = sendQueued().finally(() => { flushing = null; });
  return flushing;
}

async function sendQueued() {
  if (!readQueue().length || !navigator.onLine) return;
  let user = signedInUser();
  if (!user) {
    try {
      user = (await loadSession()).username;
    } catch (e) {
      return; // no session (the page asks to log in) or no server: sent on the next page after logging in
    }
  }
  for (let entry = readQueue().find((e) => e.user === user); entry; entry = readQueue().find((e) => e.user === user)) {
    try {
      await putJson(`/api/progress/${encodeURIComponent(entry.series)}`,
        { chapter: entry.chapter, page: entry.page, at: entry.at });
    } catch (e) {
      // A chapter that left the library (404) or a page it no longer has (400) can never be saved: dropped.
      if (e.status !== 400 && e.status !== 404) return;
    }
    writeQueue(readQueue().filter((e) => e.id !== entry.id));
  }
}
