// Profile page, reading defaults section: how a series opens in the reader until the user chooses otherwise for it
// (layout, direction, fit, double-page offset, border crop), kept on the server (PUT /api/me/reading-defaults).
import { byId } from './dom.js';
import { getJson, putJson } from './api.js';

const PATH = '/api/me/reading-defaults';

/** What the form shows before the user saved any: the reader's own choice. */
const BUILT_IN = { layout: 'auto', direction: 'rtl', fit: 'width', offset: false, crop: false };

const message = byId('reading-defaults-message');
const error = byId('reading-defaults-error');

function say(text) {
  message.className = 'notice ok';
  message.textContent = text;
}

function show(settings) {
  const s = settings || BUILT_IN;
  byId('reading-layout').value = s.layout;
  byId('reading-direction').value = s.direction;
  byId('reading-fit').value = s.fit;
  byId('reading-offset').value = String(Boolean(s.offset));
  byId('reading-crop').value = String(Boolean(s.crop));
}

function chosen() {
  return {
    layout: byId('reading-layout').value,
    direction: byId('reading-direction').value,
    fit: byId('reading-fit').value,
    offset: byId('reading-offset').value === 'true',
    crop: byId('reading-crop').value === 'true',
  };
}

async function save(event) {
  event.preventDefault();
  const button = byId('reading-defaults-save');
  error.textContent = '';
  message.textContent = '';
  button.disabled = true;
  try {
    const answer = await putJson(PATH, chosen());
    show(answer && answer.defaults);
    say('Reading defaults saved: series you have not set otherwise open this way in every browser.');
  } catch (e) {
    if (!e.redirecting) error.textContent = e.message;
  } finally {
    button.disabled = false;
  }
}

async function start() {
  byId('reading-defaults-form').addEventListener('submit', save);
  show(null);
  try {
    const answer = await getJson(PATH);
    show(answer && answer.defaults);
    if (!answer || !answer.defaults) message.textContent = 'No defaults saved yet: the reader\u2019s own are shown.';
  } catch (e) {
    if (!e.redirecting) error.textContent = e.message;
  }
}

start();
