// Admin settings page: notification destinations and the heartbeat (config-file ones read-only, the page's own editable;
// secrets only as "set"), the forms that add, edit and remove them, and the test button.
import { el, byId } from './dom.js';
import { getJson, postJson, putJson, request } from './api.js';
import { startPage } from './page.js';

const message = byId('settings-message');
const tbody = document.querySelector('#destinations-table tbody');
const testButton = byId('test-button');
const panel = byId('destination-panel');
const form = byId('destination-form');
const results = new Map();
let current = null;
let editing = null;

startPage('settings', async () => {
  await load();
  testButton.addEventListener('click', runTest);
  byId('add-destination').addEventListener('click', () => openForm(null));
  byId('cancel-destination').addEventListener('click', closeForm);
  byId('dest-type').addEventListener('change', showTopic);
  form.addEventListener('submit', saveDestination);
  byId('heartbeat-form').addEventListener('submit', saveHeartbeat);
  byId('remove-heartbeat').addEventListener('click', removeHeartbeat);
});

function say(text, kind = 'ok') {
  message.className = `notice ${kind}`;
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  message.textContent = text;
}

const destinationPath = (name) => `/api/admin/notifications/destinations/${encodeURIComponent(name)}`;

async function load() {
  let settings;
  try {
    settings = await getJson('/api/admin/notifications');
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
    return;
  }
  draw(settings);
}

function draw(settings) {
  current = settings;
  const destinations = settings.destinations || [];
  const summary = byId('notifications-summary');
  if (settings.configured) {
    summary.replaceChildren(`${destinations.length} destination${destinations.length === 1 ? '' : 's'}; `
      + `${settings.waiting} message(s) waiting, ${settings.dropped} dropped since start`,
    ...(settings.publicUrl ? ['; messages link to ', el('a', { href: settings.publicUrl, text: settings.publicUrl })]
      : ['; no public URL (messages carry no links)']));
  } else {
    summary.textContent = 'Nothing is configured: no messages are sent and no heartbeat goes out.';
  }
  if (settings.settingsProblem) say(`The destinations saved on this page are not used: ${settings.settingsProblem}`, 'error');
  if (!destinations.length) {
    tbody.replaceChildren(el('tr', { class: 'empty-row' }, el('td', { colspan: '10', class: 'quiet',
      text: 'No destinations yet. Press “Add a destination” below to send new chapters, failures and warnings '
        + 'to your phone (ntfy, Gotify) or to a webhook.' })));
  } else tbody.replaceChildren(...destinations.map((d) => el('tr', { 'data-name': d.name },
    el('td', { text: d.name }), el('td', { text: d.type }), el('td', { text: d.url }),
    el('td', { text: d.topic || '—' }), el('td', { text: d.token }),
    el('td', { text: (d.events || []).join(', ') }), el('td', { text: String(d.maxPerHour) }),
    el('td', { text: d.origin === 'config' ? 'config file' : 'this page' }),
    el('td', { class: 'test-answer', text: results.get(d.name) || '' }),
    el('td', {}, d.origin === 'config' ? null : [
      el('button', { type: 'button', class: 'small edit', text: 'Edit', onclick: () => openForm(d) }),
      el('button', { type: 'button', class: 'small danger remove', text: 'Remove', onclick: () => removeDestination(d) }),
    ]))));
  const hb = settings.heartbeat || {};
  byId('heartbeat-status').textContent = hb.url === 'set'
    ? `Heartbeat: set${hb.origin === 'config' ? ' in the config file' : ''}, every ${hb.intervalSeconds} s while ready`
      + `${results.has('') ? ` (test: ${results.get('')})` : ''}`
    : 'Heartbeat: none';
  const heartbeatFromFile = hb.origin === 'config';
  for (const id of ['heartbeat-url', 'heartbeat-interval', 'save-heartbeat']) byId(id).disabled = heartbeatFromFile;
  byId('remove-heartbeat').disabled = hb.origin !== 'settings';
  byId('heartbeat-url').placeholder = hb.url === 'set' ? 'set (leave blank to keep)' : 'https://hc-ping.com/…';
  if (hb.intervalSeconds) byId('heartbeat-interval').value = hb.intervalSeconds;
  testButton.disabled = !settings.configured;
}

function showTopic() {
  byId('dest-topic-field').hidden = byId('dest-type').value !== 'ntfy';
}

function openForm(destination) {
  editing = destination;
  const kinds = (current && current.eventKinds) || [];
  byId('destination-heading').textContent = destination ? `Edit ${destination.name}` : 'Add a destination';
  byId('dest-name').value = destination ? destination.name : '';
  byId('dest-name').disabled = !!destination;
  byId('dest-type').value = destination ? destination.type : 'ntfy';
  for (const id of ['dest-url', 'dest-topic', 'dest-token']) {
    byId(id).value = '';
    byId(id).placeholder = destination ? 'set (leave blank to keep)' : '';
  }
  if (destination && destination.token === 'none') byId('dest-token').placeholder = 'none';
  byId('dest-rate').value = destination ? destination.maxPerHour : 30;
  const chosen = new Set(destination ? destination.events : kinds);
  byId('dest-events').replaceChildren(el('legend', { text: 'Events' }), ...kinds.map((kind) => el('label', {},
    el('input', { type: 'checkbox', name: 'event', value: kind, checked: chosen.has(kind) }), ` ${kind}`)));
  showTopic();
  panel.hidden = false;
  byId(destination ? 'dest-url' : 'dest-name').focus();
}

function closeForm() {
  panel.hidden = true;
  editing = null;
}

async function saveDestination(event) {
  event.preventDefault();
  const name = editing ? editing.name : byId('dest-name').value.trim();
  if (!name) {
    say('Give the destination a name (letters, digits, dots, dashes, underscores).', 'error');
    return;
  }
  const body = {
    type: byId('dest-type').value,
    url: byId('dest-url').value.trim(),
    topic: byId('dest-topic').value.trim(),
    token: byId('dest-token').value.trim(),
    events: [...form.querySelectorAll('input[name="event"]:checked')].map((box) => box.value),
    maxPerHour: Number.parseInt(byId('dest-rate').value, 10) || 30,
  };
  try {
    draw(await putJson(destinationPath(name), body));
    say(`Saved ${name}.`);
    closeForm();
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function removeDestination(destination) {
  if (!window.confirm(`Remove the destination ${destination.name}?`)) return;
  try {
    draw(await request('DELETE', destinationPath(destination.name)));
    say(`Removed ${destination.name}.`);
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function saveHeartbeat(event) {
  event.preventDefault();
  try {
    draw(await putJson('/api/admin/notifications/heartbeat', {
      url: byId('heartbeat-url').value.trim(),
      intervalSeconds: Number.parseInt(byId('heartbeat-interval').value, 10) || 300,
    }));
    byId('heartbeat-url').value = '';
    say('Saved the heartbeat.');
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function removeHeartbeat() {
  try {
    draw(await request('DELETE', '/api/admin/notifications/heartbeat'));
    say('Removed the heartbeat.');
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function runTest() {
  testButton.disabled = true;
  say('Sending…');
  try {
    const answer = await postJson('/api/admin/notifications/test', {});
    results.clear();
    for (const d of answer.destinations || []) results.set(d.name, `${d.ok ? 'OK' : 'failed'}: ${d.answer}`);
    if (answer.heartbeat) results.set('', `${answer.heartbeat.ok ? 'OK' : 'failed'}: ${answer.heartbeat.answer}`);
    const failed = [...results.values()].filter((r) => r.startsWith('failed')).length;
    say(failed ? `${failed} of ${results.size} failed; see the table.` : `All ${results.size} answered.`, failed ? 'error' : 'ok');
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
  await load();
}
