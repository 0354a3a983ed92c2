// Settings → Service health: reader and scraper status (from GET /api/admin/status every 5 s), supervisor states,
// library status and what it skipped, memory yield and where its readings come from, circuits, active checkpoints
// (live from published progress), failed jobs and incidents (live from published incidents; newest first, at most 50
// shown, filter by kind and source). A service blocked by a corrupt state file gets a "Retry start" button once its
// file has been repaired.
import { el, byId, ago, fullDate } from './dom.js';
import { postJson } from './api.js';
import { startPage } from './page.js';
import { openBus } from './bus.js';
import { scraperReachable as answers, watchStatus } from './reachability.js';
import {
  actionWords, incidentWords, jobWords, libraryWords, memoryWords, readerWords, scraperWords, serviceWords,
  sourceWords,
} from './health-words.js';

const SHOWN_INCIDENTS = 50;
/** As many as the scraper keeps. */
const KEPT_INCIDENTS = 200;
const FAILED_STATES = ['retry_wait', 'unavailable', 'quarantined', 'paused'];

let bus = null;
let scraperReachable = null;
const active = new Map();
let incidents = [];

startPage('health', async () => {
  bus = openBus({
    onState: (open) => { if (open) reloadScraperViews(); },
    subscriptions: {
      JOB_PROGRESS: onProgress,
      INCIDENT_RECORDED: (incident) => {
        incidents.unshift(incident);
        incidents.length = Math.min(incidents.length, KEPT_INCIDENTS);
        drawIncidents();
      },
      CIRCUIT_STATE: () => reloadLanes(),
    },
  });
  byId('incident-kind').addEventListener('change', drawIncidents);
  byId('incident-source').addEventListener('change', drawIncidents);
  await watchStatus(drawStatus, (e) => {
    byId('reader-status').textContent = 'Reader: not answering';
    byId('health-message').className = 'notice error';
    byId('health-message').dataset.kind = 'status';
    byId('health-message').textContent = e.message;
  });
});

function drawStatus(status) {
  // Only a failed status load is forgotten here; the answer to a retry start stays until the next action.
  if (byId('health-message').dataset.kind === 'status') byId('health-message').textContent = '';
  byId('checked-at').textContent = `checked ${new Date(status.checkedAt).toLocaleTimeString()}`;
  byId('reader-status').textContent = `Reader: ${readerWords(status.reader.status)}`;
  const reachable = answers(status);
  const scraper = byId('scraper-status');
  scraper.textContent = `Scraper: ${scraperWords(status.scraper.status)}`;
  scraper.dataset.state = status.scraper.status;
  byId('scraper-detail').textContent = reachable
    ? `instance ${status.scraper.instance.slice(0, 8)}, started ${ago(new Date(status.scraper.startedAt).toISOString())}`
    : `no answer over the event bus (${status.scraper.reason})`;
  const lib = status.library;
  const skipped = (lib.skipped && lib.skipped.count) || 0;
  byId('library-status').textContent = `Library: ${libraryWords(lib.status)}, ${lib.series} series`
    + (lib.scannedAt ? `, scanned ${ago(lib.scannedAt)}` : '') + (lib.error ? ` (${lib.error})` : '')
    + (skipped ? `, ${skipped} skipped (not listed, not served):` : '');
  drawSkipped(skipped ? lib.skipped : null);
  drawSupervisors(status.supervisors);
  if (reachable !== scraperReachable) {
    scraperReachable = reachable;
    if (reachable) reloadScraperViews();
    else forgetScraperViews();
  }
}

/** Library entries the reader does not show, with why (the first 50; the count above is all of them). */
function drawSkipped(skipped) {
  const list = byId('library-skipped');
  list.hidden = !skipped;
  if (!skipped) return;
  const more = skipped.count - skipped.reasons.length;
  list.replaceChildren(...skipped.reasons.map((reason) => el('li', { text: reason })),
    ...(more > 0 ? [el('li', { text: `and ${more} more (see the reader's log)` })] : []));
}

/** What only the scraper knows is unknown while it cannot be reached: never show its last answers as current. */
function forgetScraperViews() {
  const unknown = 'Unknown while the scraper is not answering.';
  active.clear();
  byId('yield-status').textContent = 'Memory: unknown (the scraper is not answering)';
  for (const id of ['checkpoints', 'circuits', 'failed']) {
    byId(id).replaceChildren(el('p', { class: 'quiet', text: unknown }));
  }
}

/** A reason as a sentence: Java class names (from older runtime files) say nothing to an operator. */
function sentence(text) {
  return String(text).replace(/\b(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\b:?\s*/g, '');
}

function drawSupervisors(launchers) {
  const rows = [];
  const memory = [];
  for (const launcher of launchers) {
    if (launcher.memory) memory.push(launchers.length > 1 ? `${launcher.node}: ${launcher.memory}` : launcher.memory);
    for (const s of launcher.services) {
      const state = launcher.silent ? `${serviceWords(s.status)} (not heard from since ${ago(launcher.heardAt)})`
        : serviceWords(s.status);
      const why = el('td', { class: 'quiet supervisor-reason',
        text: s.reason ? sentence(s.reason) : (s.parkedAt ? `parked ${ago(s.parkedAt)}` : '') });
      if (s.status === 'blocked' && !launcher.silent) {
        why.append(' ', el('button', { type: 'button', class: 'small', text: 'Retry start',
          dataset: { action: 'retry-start' }, title: 'Deploy it again once the file has been repaired',
          onclick: (event) => retryStart(s.service, launcher.node, event.currentTarget) }));
      }
      rows.push(el('tr', { dataset: { service: s.service, status: s.status } },
        el('td', { text: launcher.node }), el('td', { text: s.service }), el('td', { class: 'supervisor-state', text: state }),
        el('td', { text: s.failuresInWindow }), el('td', { text: s.restarts }), why));
    }
  }
  document.querySelector('#supervisors-table tbody').replaceChildren(...rows);
  byId('memory-source').textContent = memory.length ? `Memory readings: ${memory.join('; ')}` : '';
}

/** Retries the service on the launcher it is shown under: with several readers, that is the blocked one. */
async function retryStart(service, node, button) {
  const message = byId('health-message');
  button.disabled = true;
  message.dataset.kind = 'action';
  message.className = 'notice';
  message.textContent = `Starting the ${service} again…`;
  try {
    const state = await postJson(
      `/api/admin/services/${encodeURIComponent(service)}/start?node=${encodeURIComponent(node)}`, {});
    if (state.status === 'blocked') {
      message.className = 'notice error';
      message.textContent = `The ${service} is still blocked: ${sentence(state.reason)}`;
    } else {
      message.className = 'notice ok';
      message.textContent = `The ${service} was started again (now ${serviceWords(state.status)}).`;
    }
  } catch (e) {
    message.className = 'notice error';
    message.textContent = `The ${service} could not be started again: ${e.message}`;
  }
  await reloadStatus();
}

async function reloadScraperViews() {
  await Promise.all([reloadJobs(), reloadLanes(), reloadIncidents()]);
}

async function reloadJobs() {
  try {
    const { jobs } = await bus.request('JOBS_LIST', {});
    active.clear();
    for (const job of jobs.filter((j) => j.state === 'active')) {
      active.set(job.id, { jobId: job.id, title: job.title, ...(job.progress || {}), at: job.updatedAt });
    }
    drawCheckpoints();
    drawFailed(jobs.filter((j) => FAILED_STATES.includes(j.state)));
  } catch (e) {
    byId('checkpoints').textContent = e.message;
  }
}

function onProgress(p) {
  if (p.state === 'active') active.set(p.jobId, { ...p, at: new Date().toISOString() });
  else if (active.delete(p.jobId)) reloadJobs();
  drawCheckpoints();
}

function drawCheckpoints() {
  const items = [...active.values()].map((c) => el('p', { class: 'checkpoint', dataset: { job: c.jobId } },
    el('strong', { text: c.title }),
    ` · chapter ${c.chapterNumber ?? '?'} · page ${c.page ?? 0} of ${c.pages ?? '?'} · last progress `,
    el('span', { title: fullDate(c.at), text: ago(c.at) })));
  byId('checkpoints').replaceChildren(...(items.length ? items : [el('p', { class: 'quiet', text: 'No download is running.' })]));
}

function drawFailed(jobs) {
  const groups = FAILED_STATES.map((state) => {
    const inState = jobs.filter((j) => j.state === state);
    if (!inState.length) return null;
    return el('div', { dataset: { state } }, el('h3', { text: `${jobWords(state)} (${inState.length})` }),
      el('ul', {}, inState.map((j) => el('li', { text: `${j.title} (${j.source}): ${j.reason || 'no reason recorded'}` }))));
  }).filter(Boolean);
  byId('failed').replaceChildren(...(groups.length ? groups : [el('p', { class: 'quiet', text: 'No download has stopped.' })]));
}

async function reloadLanes() {
  try {
    const { lanes, yieldReason } = await bus.request('LANES_LIST', {});
    byId('yield-status').textContent = memoryWords(yieldReason);
    byId('circuits').replaceChildren(...(lanes.length ? lanes.map((l) => el('p', {
      dataset: { source: l.source, circuit: l.circuit } },
      el('strong', { text: l.source }), ` · ${sourceWords(l.circuit)} · downloads `
        + `${l.paused ? `paused (${l.pauseReason || 'by an admin'})` : 'running'}`))
      : [el('p', { class: 'quiet', text: 'No sources are configured.' })]));
  } catch (e) {
    byId('yield-status').textContent = `Memory: unknown (${e.message})`;
  }
}

async function reloadIncidents() {
  try {
    incidents = (await bus.request('INCIDENTS_LIST', {})).incidents || [];
    drawIncidents();
  } catch (e) {
    document.querySelector('#incidents-table tbody').replaceChildren(el('tr', {}, el('td', { colspan: '6', text: e.message })));
  }
}

function fillFilter(select, values, words = (v) => v) {
  const chosen = select.value;
  select.replaceChildren(el('option', { value: '', text: 'All' }),
    ...[...values].sort().map((v) => el('option', { value: v, text: words(v) })));
  select.value = chosen;
}

function drawIncidents() {
  fillFilter(byId('incident-kind'), new Set(incidents.map((i) => i.kind)), incidentWords);
  fillFilter(byId('incident-source'), new Set(incidents.map((i) => i.source).filter(Boolean)));
  const kind = byId('incident-kind').value;
  const source = byId('incident-source').value;
  const shown = incidents.filter((i) => (!kind || i.kind === kind) && (!source || i.source === source))
    .slice(0, SHOWN_INCIDENTS);
  const rows = shown.map((i) => el('tr', { class: 'incident-row', dataset: { open: String(!i.resolvedAt) } },
    el('td', { title: fullDate(i.at), text: ago(i.at) }), el('td', { text: incidentWords(i.kind) }), el('td', { text: i.source || '—' }),
    el('td', { text: i.jobId || '—' }),
    el('td', { text: i.httpStatus ? `${i.message} (HTTP ${i.httpStatus})` : i.message }),
    el('td', { text: actionWords(i.action) + (i.resolvedAt ? ' · resolved' : '') })));
  document.querySelector('#incidents-table tbody').replaceChildren(...(rows.length ? rows
    : [el('tr', {}, el('td', { colspan: '6', class: 'quiet', text: 'No incidents.' }))]));
}
