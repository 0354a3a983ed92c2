// What the profile and series pages show of one series' link to a tracker entry: the entry, the tracker's progress,
// the last sync, the last error, a waiting update and the offer to take the tracker's progress when it is ahead.
import { el, ago, fullDate, plural } from './dom.js';
import { postJson, seriesPath } from './api.js';

/** Only http(s) links become clickable: a link's scheme decides what a click runs. */
export function safeUrl(url) {
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : null;
}

/** The tracker entry's title, a link to its page on the tracker when there is one. */
export function entryLink(link) {
  const title = link.title || link.remoteId || 'entry';
  const url = safeUrl(link.url);
  return url
    ? el('a', { class: 'tracker-entry', href: url, rel: 'noopener noreferrer', target: '_blank', text: `${title} ↗`,
      title: url })
    : el('span', { class: 'tracker-entry', text: title });
}

/** "12 of 40 (reading)", "12", or "—" when the tracker's progress is not known yet. */
export function progressText(link) {
  if (link.trackerProgress == null) return '—';
  let text = String(link.trackerProgress);
  if (link.totalChapters) text += ` of ${link.totalChapters}`;
  if (link.trackerStatus) text += ` (${String(link.trackerStatus).toLowerCase().replace(/_/g, ' ')})`;
  return text;
}

/** The last sync in local time, "never" without one; the relative time as tooltip. */
export function lastSync(link) {
  return el('span', { class: 'tracker-last-sync', text: link.lastSyncAt ? fullDate(link.lastSyncAt) : 'never',
    title: link.lastSyncAt ? ago(link.lastSyncAt) : '' });
}

/** The number of chapters the tracker says were read when its progress is ahead of ours, else null. */
export function pullCount(link) {
  if (link.pullOffered == null || link.pullOffered === false) return null;
  const n = typeof link.pullOffered === 'number' ? link.pullOffered : Number(link.trackerProgress);
  return Number.isFinite(n) ? n : null;
}

/**
 * The last error (warning style) and a marker for an update still waiting to be sent; nothing when neither.
 */
export function syncState(link) {
  const parts = [];
  if (link.lastError) parts.push(el('span', { class: 'tracker-warning tracker-error', text: link.lastError }));
  if (link.pending) {
    const waiting = typeof link.pending === 'number' && link.pending > 1 ? `${plural(link.pending, 'update')} pending`
      : 'pending';
    parts.push(el('span', { class: 'tracker-pending', text: waiting,
      title: 'An update is waiting to be sent to the tracker' }));
  }
  return parts;
}

/**
 * "AniList says you read 10 chapters" and a button that marks our chapters read up to it; `after(marked)` runs once
 * the server answered, `fail(error)` when it refused. Null when nothing is offered.
 */
export function pullOffer(trackerId, trackerName, series, link, { after, fail }) {
  const n = pullCount(link);
  if (n == null) return null;
  const button = el('button', { type: 'button', class: 'small tracker-pull', text: `Mark read up to ${n}`,
    'data-tracker': trackerId, 'data-series': series,
    'aria-label': `Mark chapters read up to ${n}, as ${trackerName} says` });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const answer = await postJson(seriesPath(series, 'trackers', trackerId, 'pull'), {});
      await after(answer && typeof answer.marked === 'number' ? answer.marked : 0);
    } catch (e) {
      button.disabled = false;
      if (!e.redirecting) fail(e);
    }
  });
  return el('span', { class: 'tracker-pull-offer' },
    el('span', { text: `${trackerName} says you read ${plural(n, 'chapter')}. ` }), button);
}
