// Settings → Scraper: the queue by state with live progress (published events over the bridge), one page at a time
// with a state filter (a queue of thousands of jobs is never drawn at once), job, lane and everything actions, pacing
// per source, discovery. Every action shows the scraper's answer or its error.
import { el, byId, ago } from './dom.js';
import { startPage } from './page.js';
import { openBus } from './bus.js';
import { scraperReachable, watchStatus } from './reachability.js';

const STATES = ['active', 'pending', 'ready', 'paused', 'retry_wait', 'unavailable', 'quarantined', 'done'];
const STATE_LABEL = {
  active: 'Downloading', pending: 'Pending', ready: 'Ready (awaiting confirmation)', paused: 'Paused',
  retry_wait: 'Waiting to retry', unavailable: 'Unavailable', quarantined: 'Quarantined', done: 'Done',
};
const RELOAD_MS = 15000;
/** Jobs on one page of the queue (the scraper caps a page at 200). */
const PAGE_SIZE = 50;
/** A progress event of a job that is not on the page asks for the page again at most this often. */
const OFF_PAGE_RELOAD_MS = 2000;

const message = byId('scraper-message');
const jobs = new Map();
let bus = null;
let retryJob = null;
/** The page shown: the state filter ('' for every state), the 1-based page, and the scraper's totals. */
const view = { state: '', page: 1, pages: 1, total: 0, counts: {} };

function say(text, kind = 'ok') {
  message.className = `notice ${kind}`;
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  message.textContent = text;
}

/** Runs an action; the notice says what happened or why not. */
async function act(label, operation, body, after = reloadAll) {
  try {
    const reply = await bus.request(operation, body);
    say(`${label}: done.`);
    await after(reply);
    return reply;
  } catch (e) {
    say(`${label}: ${e.message}`, 'error');
    return null;
  }
}

/** The connection open (null before its first try), and whether the scraper answers (null until first asked). */
let busOpen = null;
let scraperUp = null;

/** The badge: "live" only while the connection is open and the scraper answers, as the health page says. */
function drawBusState(reason = '') {
  const state = busOpen === null ? 'connecting' : !busOpen ? 'reconnecting'
    : scraperUp === null ? 'connecting' : scraperUp ? 'live' : 'unreachable';
  const badge = byId('bus-state');
  badge.dataset.state = state;
  badge.textContent = { connecting: 'connecting…', reconnecting: 'reconnecting…', live: 'live',
    unreachable: 'scraper unreachable' }[state];
  badge.title = state === 'unreachable' ? `The scraper does not answer (${reason || 'no answer'}).` : '';
}

function onStatus(status) {
  const was = scraperUp;
  scraperUp = scraperReachable(status);
  drawBusState(status.scraper && status.scraper.reason);
  if (scraperUp && was === false && busOpen) reloadAll();
}

startPage('scraper', async () => {
  bus = openBus({
    onState: (open) => {
      busOpen = open;
      drawBusState();
      if (open) reloadAll();
    },
    subscriptions: { JOB_PROGRESS: onProgress, CIRCUIT_STATE: () => reloadLanes() },
  });
  byId('add-form').addEventListener('submit', addTitle);
  byId('queue-state').addEventListener('change', () => {
    view.state = byId('queue-state').value;
    view.page = 1;
    reloadJobs();
  });
  byId('queue-prev').addEventListener('click', () => turnPage(-1));
  byId('queue-next').addEventListener('click', () => turnPage(1));
  byId('pause-all').addEventListener('click', () => everyLane('pause'));
  byId('resume-all').addEventListener('click', () => everyLane('resume'));
  byId('discovery-form').addEventListener('submit', saveDiscovery);
  byId('discovery-run').addEventListener('click', () => act('Discovery run', 'DISCOVERY_RUN', {},
    reloadDiscovery));
  byId('retry-dialog').addEventListener('close', () => {
    if (byId('retry-dialog').returnValue === 'retry' && retryJob) {
      act(`Retry of ${retryJob.title}`, 'JOBS_RETRY', { jobId: retryJob.id });
    }
    retryJob = null;
  });
  // Published events keep the page live; a slow reload only catches what a dropped connection missed.
  setInterval(() => { if (!document.hidden) reloadAll(); }, RELOAD_MS);
  await watchStatus(onStatus, (e) => {
    scraperUp = false;
    drawBusState(e.message);
  });
});

async function reloadAll() {
  await Promise.all([reloadJobs(), reloadLanes(), reloadDiscovery()]);
}

let jobsLoading = null;

/** Reloads the queue; callers during a reload share it (a burst of events for a new job asks once). */
function reloadJobs() {
  if (!jobsLoading) jobsLoading = loadJobs().finally(() => { jobsLoading = null; });
  return jobsLoading;
}

async function loadJobs() {
  try {
    const request = { page: view.page, size: PAGE_SIZE };
    if (view.state) request.state = view.state;
    let answer = await bus.request('JOBS_LIST', request);
    const pages = Math.max(1, Math.ceil((answer.total || 0) / PAGE_SIZE));
    if (view.page > pages) {
      // The queue shrank under the page shown (jobs dismissed, deleted or moved out of the filter): show its last page.
      view.page = pages;
      answer = await bus.request('JOBS_LIST', { ...request, page: view.page });
    }
    Object.assign(view, { pages, total: answer.total || 0, counts: answer.counts || {} });
    jobs.clear();
    for (const job of answer.jobs || []) jobs.set(job.id, job);
    drawQueue();
    drawPaging();
  } catch (e) {
    say(`Queue: ${e.message}`, 'error');
  }
}

function turnPage(step) {
  const next = Math.min(view.pages, Math.max(1, view.page + step));
  if (next === view.page) return;
  view.page = next;
  reloadJobs();
}

/** The filter (with each state's count in the whole queue) and where this page lies. */
function drawPaging() {
  const select = byId('queue-state');
  const every = Object.values(view.counts).reduce((a, b) => a + b, 0);
  select.replaceChildren(el('option', { value: '', text: `Every state (${every})` }),
    ...STATES.map((state) => el('option', { value: state, text: `${STATE_LABEL[state]} (${view.counts[state] || 0})` })));
  select.value = view.state;
  const first = view.total ? (view.page - 1) * PAGE_SIZE + 1 : 0;
  const last = Math.min(view.total, view.page * PAGE_SIZE);
  byId('queue-page').textContent = `Page ${view.page} of ${view.pages} · jobs ${first}–${last} of ${view.total}`;
  byId('queue-page').dataset.page = String(view.page);
  byId('queue-prev').disabled = view.page <= 1;
  byId('queue-next').disabled = view.page >= view.pages;
}

let offPageReload = 0;

/** A job off the page changed: the page is asked for again, at most every OFF_PAGE_RELOAD_MS. */
function reloadSoon() {
  if (offPageReload) return;
  offPageReload = setTimeout(() => {
    offPageReload = 0;
    reloadJobs();
  }, OFF_PAGE_RELOAD_MS);
}

/** A published progress event: update the job's bar at once, and its group when its state changed. */
function onProgress(p) {
  const job = jobs.get(p.jobId);
  if (!job) {
    reloadSoon();
    return;
  }
  const moved = job.state !== p.state;
  job.state = p.state;
  job.chaptersPublished = p.chaptersDone;
  job.chapters = p.chapters;
  job.progress = { chapterId: p.chapterId, chapterNumber: p.chapterNumber, page: p.page, pages: p.pages };
  if (moved && view.state) reloadSoon();
  else if (moved) drawQueue();
  else updateRow(job);
}

function percent(job) {
  const pages = job.progress && job.progress.pages ? job.progress.page / job.progress.pages : 0;
  if (!job.chapters) return 0;
  return Math.min(100, Math.round(100 * (job.chaptersPublished + (job.state === 'done' ? 0 : pages)) / job.chapters));
}

function progressText(job) {
  const p = job.progress;
  const chapters = `${job.chaptersPublished} of ${job.chapters} chapters`;
  return p && p.pages ? `${chapters} · chapter ${p.chapterNumber ?? '?'}: page ${p.page} of ${p.pages}` : chapters;
}

function updateRow(job) {
  const row = document.querySelector(`tr[data-job="${CSS.escape(job.id)}"]`);
  if (!row) {
    drawQueue();
    return;
  }
  const pct = percent(job);
  row.querySelector('.progress-bar > span').style.width = `${pct}%`;
  row.querySelector('.progress-bar').setAttribute('aria-valuenow', String(pct));
  row.querySelector('.job-progress-text').textContent = progressText(job);
}

function jobButtons(job) {
  const button = (label, handler, cls = 'small') => el('button', {
    type: 'button', class: cls, text: label, dataset: { action: label.toLowerCase() }, onclick: handler,
  });
  const buttons = [];
  const body = { jobId: job.id };
  if (job.state === 'ready') {
    buttons.push(button('Confirm', () => act(`Confirm ${job.title}`, 'JOBS_CONFIRM', body), 'small primary'));
  }
  if (['active', 'pending', 'ready', 'retry_wait'].includes(job.state)) {
    buttons.push(button('Pause', () => act(`Pause ${job.title}`, 'JOBS_PAUSE', body)));
  }
  if (job.state === 'paused') {
    buttons.push(button('Resume', () => act(`Resume ${job.title}`, 'JOBS_RESUME', body)));
  }
  if (['paused', 'retry_wait', 'unavailable', 'quarantined'].includes(job.state)) {
    buttons.push(button('Retry', () => {
      retryJob = job;
      byId('retry-what').textContent = `${job.title} (${job.source}) is ${STATE_LABEL[job.state] || job.state}`
        + (job.reason ? `: ${job.reason}` : '.');
      byId('retry-dialog').showModal();
    }));
    buttons.push(button('Dismiss', () => {
      if (window.confirm(`Dismiss ${job.title}? The job leaves the queue and its unfinished downloads are deleted; `
        + 'the chapters already in the library stay.')) {
        act(`Dismiss ${job.title}`, 'JOBS_DISMISS', body);
      }
    }, 'small danger'));
  }
  if (job.state === 'done') {
    buttons.push(button('Delete', () => {
      if (window.confirm(`Delete the finished job of ${job.title}? The chapters in the library stay.`)) {
        act(`Delete ${job.title}`, 'JOBS_DELETE', body);
      }
    }, 'small danger'));
  }
  return el('span', { class: 'row-buttons' }, buttons);
}

function drawQueue() {
  const groups = [];
  for (const state of STATES) {
    const inState = [...jobs.values()].filter((j) => j.state === state);
    if (!inState.length) continue;
    const rows = inState.map((job) => {
      const pct = percent(job);
      return el('tr', { class: 'job-row', dataset: { job: job.id, state: job.state } },
        el('td', {}, el('div', { class: 'job-title', text: job.title }),
          el('div', { class: 'quiet', text: `${job.source} · ${job.id}` })),
        el('td', { class: 'job-progress' },
          el('div', { class: 'progress-bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100',
            'aria-valuenow': String(pct) }, el('span', { style: { width: `${pct}%` } })),
          el('div', { class: 'quiet job-progress-text', text: progressText(job) })),
        el('td', { class: 'quiet', text: job.reason || '', title: job.retryAt ? `retry ${ago(job.retryAt)}` : null }),
        el('td', { class: 'actions-cell' }, jobButtons(job)));
    });
    groups.push(el('section', { class: 'job-group', dataset: { state } },
      el('h3', { text: `${STATE_LABEL[state]} (${inState.length === (view.counts[state] ?? inState.length)
        ? inState.length : `${inState.length} on this page of ${view.counts[state]}`})` }),
      el('div', { class: 'table-wrap' }, el('table', {}, el('tbody', {}, rows)))));
  }
  const empty = view.state && view.total === 0 && Object.keys(view.counts).length
    ? `No job is ${STATE_LABEL[view.state] || view.state}.` : 'The queue is empty.';
  byId('queue').replaceChildren(...(groups.length ? groups : [el('p', { class: 'quiet', text: empty })]));
}

async function addTitle(event) {
  event.preventDefault();
  const source = byId('add-source').value;
  const title = byId('add-title').value.trim();
  if (!title) {
    say('Enter a title id or URL.', 'error');
    return;
  }
  const reply = await act(`Add ${title}`, 'JOBS_ADD', { source, title });
  if (reply && reply.created === false) say(`Add ${title}: already queued as ${reply.job.id} (${reply.job.state}).`);
  if (reply) byId('add-title').value = '';
}

let lanes = [];

async function reloadLanes() {
  try {
    const answer = await bus.request('LANES_LIST', {});
    lanes = answer.lanes || [];
    drawLanes(answer.yieldReason);
  } catch (e) {
    say(`Sources: ${e.message}`, 'error');
  }
}

async function everyLane(what) {
  const results = await Promise.all(lanes.map((lane) => bus.request(`LANES_${what.toUpperCase()}`, { source: lane.source })
    .then(() => null, (e) => `${lane.source}: ${e.message}`)));
  const failed = results.filter(Boolean);
  if (failed.length) say(`${what === 'pause' ? 'Pause' : 'Resume'} everything: ${failed.join('; ')}`, 'error');
  else say(`${what === 'pause' ? 'Paused' : 'Resumed'} every lane (${lanes.length}).`);
  reloadAll();
}

/** A pacing input's key across redraws: its lane and which delay it is. */
function pacingKey(input) {
  return `${input.closest('tr').dataset.lane}/${input.className}`;
}

function drawLanes(yieldReason) {
  // Live events redraw the table: what the admin typed and has not saved yet, and where the cursor was, survive it.
  const typed = new Map();
  document.querySelectorAll('#lanes-table tbody input').forEach((input) => {
    if (input.value !== input.dataset.drawn) typed.set(pacingKey(input), input.value);
  });
  const active = document.activeElement;
  const focused = active && active.matches('#lanes-table tbody input') ? pacingKey(active) : null;
  const select = byId('add-source');
  const chosen = select.value;
  select.replaceChildren(...lanes.map((l) => el('option', { value: l.source, text: l.source })));
  if (chosen) select.value = chosen;
  const rows = lanes.map((lane) => {
    const page = el('input', { type: 'number', min: '0', max: '600000', value: lane.pageDelayMs, class: 'pacing-page',
      'aria-label': `Page delay of ${lane.source}`, dataset: { drawn: String(lane.pageDelayMs) } });
    const chapter = el('input', { type: 'number', min: '0', max: '3600000', value: lane.chapterDelayMs,
      class: 'pacing-chapter', 'aria-label': `Chapter delay of ${lane.source}`,
      dataset: { drawn: String(lane.chapterDelayMs) } });
    const save = el('button', { type: 'button', class: 'small', text: 'Save pacing', onclick: () => act(
      `Pacing of ${lane.source}`, 'LANES_PACING',
      { source: lane.source, pageDelayMs: Number(page.value), chapterDelayMs: Number(chapter.value) }, reloadLanes) });
    const toggle = lane.paused
      ? el('button', { type: 'button', class: 'small', text: 'Resume lane', onclick: () => act(
        `Resume lane ${lane.source}`, 'LANES_RESUME', { source: lane.source }) })
      : el('button', { type: 'button', class: 'small', text: 'Pause lane', onclick: () => act(
        `Pause lane ${lane.source}`, 'LANES_PAUSE', { source: lane.source }) });
    return el('tr', { dataset: { lane: lane.source } },
      el('td', { text: `${lane.source} (${lane.type})` }),
      el('td', { text: lane.paused ? `paused${lane.pauseReason ? `: ${lane.pauseReason}` : ''}`
        : (yieldReason ? `yielding: ${yieldReason}` : laneLimits(lane)) }),
      el('td', { class: 'circuit', text: lane.circuit }),
      el('td', {}, page), el('td', {}, chapter),
      el('td', { class: 'actions-cell' }, el('span', { class: 'row-buttons' }, save, toggle)));
  });
  const body = document.querySelector('#lanes-table tbody');
  body.replaceChildren(...rows);
  body.querySelectorAll('input').forEach((input) => {
    const key = pacingKey(input);
    if (typed.has(key)) input.value = typed.get(key);
    if (key === focused) input.focus();
  });
}

/** A running lane's line: a hold being waited out (with its end) and a rate learned below the configured one. */
function laneLimits(lane) {
  const limits = lane.limits || {};
  const parts = [];
  if (limits.holdUntil && Date.parse(limits.holdUntil) > Date.now()) {
    parts.push(`${limits.holdReason || 'waiting for the source'} until ${new Date(limits.holdUntil).toLocaleTimeString()}`);
  }
  if (limits.rateLimitRps != null && limits.configuredRps != null && limits.rateLimitRps < limits.configuredRps) {
    parts.push(`rate ${limits.rateLimitRps.toFixed(1)}/s of ${limits.configuredRps.toFixed(1)}/s (learned from 429s)`);
  }
  if (limits.holdsWaited) parts.push(`${limits.holdsWaited} holds waited out`);
  return parts.length ? `running · ${parts.join(' · ')}` : 'running';
}

async function reloadDiscovery() {
  try {
    const d = await bus.request('DISCOVERY_GET', {});
    byId('discovery-enabled').value = String(!!d.enabled);
    byId('discovery-time').value = d.time || '';
    const last = d.lastRun ? ` Last run ${ago(d.lastRun.finishedAt || d.lastRun.startedAt)}.` : '';
    byId('discovery-info').textContent = (d.enabled && d.nextRunAt ? `Next run ${ago(d.nextRunAt)} (${d.zone}).`
      : 'Discovery is off.') + last;
  } catch (e) {
    byId('discovery-info').textContent = `Discovery: ${e.message}`;
  }
}

function saveDiscovery(event) {
  event.preventDefault();
  act('Discovery settings', 'DISCOVERY_SET', {
    enabled: byId('discovery-enabled').value === 'true', time: byId('discovery-time').value || null,
  }, reloadDiscovery);
}
