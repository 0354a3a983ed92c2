// Series covers: a lazily loaded image in a 2:3 box, with the title's initial shown when there is no image.
import { el } from './dom.js';
import { seriesPath } from './api.js';

/** A `.cover` box for a series; `eager` for covers in view at load time. */
export function coverBox(seriesId, title, { eager = false, badge = null } = {}) {
  const box = el('div', { class: 'cover', 'data-initial': initial(title) });
  const img = el('img', {
    src: seriesPath(seriesId, 'cover'),
    alt: '',
    loading: eager ? 'eager' : 'lazy',
    decoding: 'async',
    draggable: 'false',
  });
  img.addEventListener('error', () => box.classList.add('missing'), { once: true });
  box.append(img);
  if (badge) box.append(el('span', { class: 'badge', text: badge }));
  return box;
}

function initial(title) {
  const first = String(title || '').trim().match(/\p{L}|\p{N}/u);
  return first ? first[0].toUpperCase() : '?';
}
