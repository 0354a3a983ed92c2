// Tiny DOM helpers: build elements whose strings always become text (never HTML), toasts, relative dates.

/**
 * Creates an element; `text` sets textContent, `class` the class name, `style` an object of style properties,
 * `on*` functions become listeners.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    // Styles go through CSSOM ({ width: '40%' }): the Content-Security-Policy blocks style attributes, not CSSOM.
    else if (key === 'style') Object.assign(node.style, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/** Appends children; strings and numbers become text nodes. */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const byId = (id) => document.getElementById(id);

let toastTimer = 0;

/** Shows a short message at the bottom of the screen. */
export function toast(message, { error = false, ms = 2600 } = {}) {
  let box = byId('toast');
  if (!box) {
    box = el('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  box.textContent = message;
  box.classList.toggle('error', error);
  box.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove('show'), ms);
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60]];

/** "3 days ago" for an ISO instant; '' when there is none. */
export function ago(iso) {
  const at = Date.parse(iso || '');
  if (Number.isNaN(at)) return '';
  const seconds = (at - Date.now()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

/** The full local date and time of an ISO instant, for tooltips. */
export function fullDate(iso) {
  const at = Date.parse(iso || '');
  return Number.isNaN(at) ? '' : new Date(at).toLocaleString();
}

/** "Chapter 12.5" or the chapter's own title when it has no number. */
export function chapterLabel(chapter) {
  const number = chapter && chapter.number != null ? String(chapter.number).trim() : '';
  return number ? `Chapter ${number}` : (chapter && chapter.title) || (chapter && chapter.id) || 'Chapter';
}

/** "Chapter 2: Sawdust"; a title that already names the chapter ("Chapter 2: Sawdust", "Ch. 2 …") is kept as it is. */
export function chapterName(chapter) {
  const label = chapterLabel(chapter);
  const title = chapter && chapter.title ? String(chapter.title).trim() : '';
  if (!title || title === label) return label;
  const number = chapter.number != null ? String(chapter.number).trim() : '';
  if (!number) return title;
  const escaped = number.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`^(chapter|ch\\.?|#)\\s*0*${escaped}(?![\\d.])`, 'i').test(title)) return title;
  return `${label}: ${title}`;
}

/** "s" when n is not one. */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
