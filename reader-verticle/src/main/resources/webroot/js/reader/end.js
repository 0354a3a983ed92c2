// What comes after a chapter's last page (the long strip's foot, the paged end screen).
import { el, chapterName } from '../dom.js';

/**
 * The end of `chapter`: its name, the next chapter's button (or word that there is none yet) and the way back.
 * @param seriesUrl the series page
 * @param openNext opens the next chapter
 */
export function endNodes(chapter, seriesUrl, openNext) {
  const back = el('a', { class: 'button', id: 'end-back', href: seriesUrl, text: 'Back to the series' });
  const title = el('p', { class: 'end-title', text: `End of ${chapterName(chapter)}` });
  if (!chapter.next) {
    return [title, el('p', { id: 'end-none', text: 'There is no next chapter yet: you are up to date.' }), back];
  }
  const button = el('button', { type: 'button', class: 'primary', id: 'end-next', text: 'Next chapter »' });
  button.addEventListener('click', () => {
    button.blur();
    openNext();
  });
  return [title, button, back];
}
