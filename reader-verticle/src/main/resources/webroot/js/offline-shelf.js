// The Offline shelf: every chapter stored in this browser for the signed-in user, by series, readable now with or
// without a connection; the room each series takes and this browser's storage figure; Remove per chapter.
import { el, byId, plural } from './dom.js';
import { startPage } from './page.js';
import { readIndex, removeChapter, formatBytes } from './offline-index.js';

startPage('offline', async (me) => {
  draw(me.username);
});

async function draw(user) {
  const shelf = byId('offline-shelf');
  const series = Object.entries(readIndex(user).series);
  byId('offline-empty').hidden = series.length > 0;
  shelf.replaceChildren(...series.map(([id, s]) => {
    const chapters = Object.entries(s.chapters);
    const bytes = chapters.reduce((sum, [, c]) => sum + (c.bytes || 0), 0);
    return el('section', { class: 'panel offline-series', 'data-series': id, 'aria-label': s.title },
      el('div', { class: 'section-head' },
        el('h2', {}, el('a', { href: `/series.html?${new URLSearchParams({ id })}`, text: s.title })),
        el('span', { class: 'quiet offline-size', text: `${plural(chapters.length, 'chapter')}, ${formatBytes(bytes)}` })),
      el('ul', { class: 'chapter-list' }, chapters.map(([chapterId, c]) => {
        const remove = el('button', { type: 'button', class: 'small', text: 'Remove',
          'aria-label': `Remove ${c.name} from this device` });
        remove.addEventListener('click', async () => {
          remove.disabled = true;
          await removeChapter(user, id, chapterId);
          draw(user);
        });
        return el('li', { class: 'chapter-row', 'data-chapter-id': chapterId },
          el('a', { class: 'chapter-link', href: `/read.html?${new URLSearchParams({ series: id, chapter: chapterId })}` },
            el('span', { class: 'chapter-name', text: c.name }),
            el('span', { class: 'chapter-sub', text: `${plural(c.urls.length, 'page')} · ${formatBytes(c.bytes)}` })),
          el('span', { class: 'chapter-state', text: 'Ready offline' }),
          el('div', { class: 'row-actions' }, remove));
      })));
  }));
  if (navigator.storage && navigator.storage.estimate) {
    const { usage, quota } = await navigator.storage.estimate();
    byId('offline-storage').textContent = `This browser keeps ${formatBytes(usage)} for this site (room for `
      + `${formatBytes(quota)}).`;
  }
}
