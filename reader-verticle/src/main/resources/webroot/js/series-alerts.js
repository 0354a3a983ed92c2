// Series page: the toggle that subscribes the signed-in reader to new-chapter alerts of this series, and a hint to set
// where alerts go (their profile) when they have not yet.
import { byId, toast } from './dom.js';
import { getJson, loadSession, request } from './api.js';

const seriesId = new URLSearchParams(location.search).get('id') || '';
const button = byId('alert-toggle');
const hint = byId('alert-hint');
let subscribed = false;

async function start() {
  if (!seriesId || !button) return;
  let alerts;
  try {
    await loadSession();
    alerts = await getJson('/api/me/alerts');
  } catch (e) {
    return; // the page itself shows why it cannot load
  }
  draw(alerts);
  button.addEventListener('click', toggle);
}

function draw(alerts) {
  subscribed = (alerts.series || []).includes(seriesId);
  button.setAttribute('aria-pressed', String(subscribed));
  button.textContent = subscribed ? 'Alerts on for new chapters' : 'Alert me of new chapters';
  button.disabled = false;
  hint.hidden = !!alerts.target;
}

async function toggle() {
  button.disabled = true;
  const path = `/api/me/alerts/series/${encodeURIComponent(seriesId)}`;
  try {
    draw(await request(subscribed ? 'DELETE' : 'PUT', path, subscribed ? {} : { body: {} }));
    toast(subscribed ? 'You will be told of new chapters of this series.' : 'No more alerts for this series.');
  } catch (e) {
    button.disabled = false;
    if (!e.redirecting) toast(e.message, { error: true });
  }
}

start();
