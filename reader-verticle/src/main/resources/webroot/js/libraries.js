// Settings → Service health → Libraries: every library (downloads and the collections read in place) with its
// series, books and what it could not serve (GET /api/admin/libraries); an admin adds a collection by name and folder
// (POST, which starts a scan) and removes one they added (DELETE); those of the config file are changed there.
import { el, byId, ago } from './dom.js';
import { getJson, postJson, request } from './api.js';

const form = byId('library-form');
const message = byId('library-message');

function say(text, error = false) {
  message.className = error ? 'notice error' : 'notice';
  message.textContent = text;
}

async function load() {
  try {
    draw((await getJson('/api/admin/libraries')).libraries);
  } catch (e) {
    say(e.message, true);
  }
}

function draw(libraries) {
  const rows = libraries.map((library) => {
    const notServed = library.unreadableCount
      ? el('details', {}, el('summary', { text: String(library.unreadableCount) }),
        el('ul', {}, ...library.unreadable.map((item) => el('li', { text: `${item.path}: ${item.reason}` }))))
      : document.createTextNode('0');
    const actions = library.origin === 'admin'
      ? el('button', { type: 'button', text: 'Remove', 'aria-label': `Remove collection ${library.name}`,
        onclick: () => remove(library.name) })
      : el('span', { class: 'quiet', text: library.origin === 'config' ? 'config file' : 'built in' });
    return el('tr', {},
      el('th', { scope: 'row', text: library.name }),
      el('td', { text: library.path || 'data/library (the scraper writes it)' }),
      el('td', { text: String(library.series) }),
      el('td', { text: String(library.books) }),
      el('td', {}, notServed),
      el('td', { text: library.kind === 'downloads' ? '' : library.scannedAt ? ago(library.scannedAt) : 'not yet' }),
      el('td', {}, actions));
  });
  byId('libraries-table').tBodies[0].replaceChildren(...rows);
}

async function remove(name) {
  if (!confirm(`Stop serving collection ${name}? Nothing in its folder is touched.`)) return;
  try {
    await request('DELETE', `/api/admin/libraries/${encodeURIComponent(name)}`);
    say(`Collection ${name} removed.`);
  } catch (e) {
    say(e.message, true);
  }
  load();
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = byId('library-name').value.trim();
  const path = byId('library-path').value.trim();
  if (!form.checkValidity()) {
    say('Give the collection a name (a–z, 0–9 and -) and the folder it lies in on the server.', true);
    return;
  }
  try {
    await postJson('/api/admin/libraries', { name, path });
    say(`Collection ${name} added; its first scan has started.`);
    form.reset();
  } catch (e) {
    say(e.message, true);
  }
  load();
});

load();
setInterval(load, 15000);
