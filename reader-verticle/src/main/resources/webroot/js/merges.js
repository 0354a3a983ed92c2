// Settings → Service health → Merged series: which series an admin merged into which (GET /api/admin/series/merges),
// "Merge … into …" over the series listed on their own (POST /api/admin/series/{id}/merge) and "Unmerge" (DELETE).
import { el, byId } from './dom.js';
import { getJson, postJson, request } from './api.js';

const form = byId('merge-form');
const message = byId('merge-message');

function say(text, error = false) {
  message.className = error ? 'notice error' : 'notice';
  message.textContent = text;
}

function label(title, id) {
  return title ? `${title} (${id})` : id;
}

async function load() {
  try {
    const [merges, list] = await Promise.all([getJson('/api/admin/series/merges'), getJson('/api/series')]);
    drawMerges(merges.merges);
    const options = () => list.series.map((s) => el('option', { value: s.id, text: `${s.title} · ${s.library} (${s.id})` }));
    byId('merge-series').replaceChildren(...options());
    byId('merge-into').replaceChildren(...options());
  } catch (e) {
    say(e.message, true);
  }
}

function drawMerges(merges) {
  const rows = merges.map((m) => el('tr', {},
    el('th', { scope: 'row', text: label(m.title, m.series) }),
    el('td', { text: label(m.intoTitle, m.into) }),
    el('td', {}, el('button', { type: 'button', text: 'Unmerge', 'aria-label': `Unmerge ${m.title || m.series}`,
      onclick: () => unmerge(m.series) }))));
  byId('merges-table').tBodies[0].replaceChildren(...rows);
}

async function unmerge(id) {
  try {
    await request('DELETE', `/api/admin/series/${encodeURIComponent(id)}/merge`);
    say(`${id} is listed on its own again.`);
  } catch (e) {
    say(e.message, true);
  }
  load();
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const id = byId('merge-series').value;
  const into = byId('merge-into').value;
  try {
    await postJson(`/api/admin/series/${encodeURIComponent(id)}/merge`, { into });
    say(`${id} merged into ${into}.`);
  } catch (e) {
    say(e.message, true);
  }
  load();
});

load();
