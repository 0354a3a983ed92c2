// Reading position saver: PUT /api/progress/{series} a second after the page last changed, in order, flushed on hide.
import { putJson } from '../api.js';

const DELAY_MS = 1000;

export class ProgressSaver {
  /**
   * @param seriesId the series whose position is saved
   * @param onSaved called with {chapter, page} after the server answered 2xx, in the order of the positions
   * @param onError called with the ApiError of a failed save
   */
  constructor(seriesId, { onSaved = () => {}, onError = () => {} } = {}) {
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
    this.pending = { chapter, page, seq: ++this.seq };
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
    try {
      await putJson(this.path, { chapter: position.chapter, page: position.page }, { keepalive: true });
      if (position.seq > this.confirmedSeq) {
        this.confirmedSeq = position.seq;
        this.onSaved({ chapter: position.chapter, page: position.page });
      }
    } catch (e) {
      if (this.lastSent === position) this.lastSent = null;
      this.onError(e);
    }
  }
}
