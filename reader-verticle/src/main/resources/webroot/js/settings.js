// Admin settings page: the notification destinations and heartbeat as configured (secrets only as "set"), and a test button.
import { el, byId } from './dom.js';
import { getJson, postJson } from './api.js';
import { startPage } from './page.js';

const message = byId('settings-message');
const tbody = document.querySelector('#destinations-table tbody');
const testButton = byId('test-button');
const results = new Map();

startPage('settings', async () => {
  await load();
  testButton.addEventListener('click', runTest);
});

function say(text, kind = 'ok') {
  message.className = `notice ${kind}`;
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  message.textContent = text;
}

async function load() {
  let settings;
  try {
    settings = await getJson('/api/admin/notifications');
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
    return;
  }
  const destinations = settings.destinations || [];
  byId('notifications-summary').textContent = settings.configured
    ? `${destinations.length} destination${destinations.length === 1 ? '' : 's'}; ${settings.waiting} message(s) waiting, `
      + `${settings.dropped} dropped since start${settings.publicUrl ? `; links to ${settings.publicUrl}` : '; no public URL (no links)'}`
    : 'Nothing is configured: no messages are sent and no heartbeat goes out.';
  tbody.replaceChildren(...destinations.map((d) => el('tr', { 'data-name': d.name },
    el('td', { text: d.name }), el('td', { text: d.type }), el('td', { text: d.url }),
    el('td', { text: d.topic || '—' }), el('td', { text: d.token }),
    el('td', { text: (d.events || []).join(', ') }), el('td', { text: String(d.maxPerHour) }),
    el('td', { class: 'test-answer', text: results.get(d.name) || '' }))));
  const hb = settings.heartbeat || {};
  byId('heartbeat-status').textContent = hb.url === 'set'
    ? `Heartbeat: set, every ${hb.intervalSeconds} s while ready${results.has('') ? ` (test: ${results.get('')})` : ''}`
    : 'Heartbeat: none';
  testButton.disabled = !settings.configured;
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
