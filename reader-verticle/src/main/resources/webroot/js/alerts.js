// Profile page, new-chapter alerts section: where the reader's alerts go (ntfy topic or webhook; secrets only as
// "set") and the series they subscribed to, each with a button to stop it.
import { el, byId } from './dom.js';
import { getJson, putJson, request } from './api.js';

const message = byId('alerts-message');

/** Fills the profile page's alerts section; the page itself (session, header) is started by profile.js. */
export async function startAlerts() {
  byId('alerts-type').addEventListener('change', showTopic);
  byId('alerts-form').addEventListener('submit', save);
  byId('alerts-stop').addEventListener('click', stop);
  const [alerts, library] = await Promise.all([getJson('/api/me/alerts'), getJson('/api/series').catch(() => null)]);
  const titles = new Map(((library && library.series) || []).map((s) => [s.id, s.title]));
  draw(alerts, titles);
}

function say(text, kind = 'ok') {
  message.className = `notice ${kind}`;
  message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  message.textContent = text;
}

function showTopic() {
  byId('alerts-topic-field').hidden = byId('alerts-type').value !== 'ntfy';
}

let seriesTitles = new Map();

function draw(alerts, titles = seriesTitles) {
  seriesTitles = titles;
  const target = alerts.target;
  byId('alerts-status').textContent = target
    ? `Alerts go to ${target.type === 'ntfy' ? 'an ntfy topic' : 'a webhook'} (URL set, token ${target.token}).`
    : 'Alerts go nowhere yet: choose an ntfy topic or a webhook below.';
  if (target) byId('alerts-type').value = target.type;
  for (const id of ['alerts-url', 'alerts-topic', 'alerts-token']) {
    byId(id).value = '';
    byId(id).placeholder = target && (id !== 'alerts-token' || target.token === 'set') ? 'set (leave blank to keep)' : '';
  }
  byId('alerts-stop').disabled = !target;
  showTopic();
  const series = alerts.series || [];
  byId('alerts-series').replaceChildren(...(series.length ? series.map((id) => el('li', { 'data-series': id },
    el('a', { href: `/series.html?id=${encodeURIComponent(id)}`, text: titles.get(id) || id }), ' ',
    el('button', { type: 'button', class: 'small ghost', text: 'Stop', onclick: () => unsubscribe(id) })))
    : [el('li', { class: 'quiet', text: 'None yet: use “Alert me of new chapters” on a series page.' })]));
}

async function save(event) {
  event.preventDefault();
  try {
    draw(await putJson('/api/me/alerts/target', {
      type: byId('alerts-type').value,
      url: byId('alerts-url').value.trim(),
      topic: byId('alerts-topic').value.trim(),
      token: byId('alerts-token').value.trim(),
    }));
    say('Saved.');
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function stop() {
  try {
    draw(await request('DELETE', '/api/me/alerts/target'));
    say('Alerts stopped; your series stay subscribed for when you choose a place again.');
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
}

async function unsubscribe(id) {
  try {
    draw(await request('DELETE', `/api/me/alerts/series/${encodeURIComponent(id)}`));
  } catch (e) {
    if (!e.redirecting) say(e.message, 'error');
  }
}
