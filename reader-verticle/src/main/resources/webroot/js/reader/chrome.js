// The reader's surroundings: bars shown or hidden, full screen, the page-thumbnail strip and the keyboard help.
import { el, byId } from '../dom.js';

export class ReaderChrome {
  /**
   * @param reader the #reader element (its classes and data attributes carry the state for the stylesheet and tests)
   * @param onPage called with a page number chosen in the thumbnail strip
   */
  constructor(reader, { onPage }) {
    this.reader = reader;
    this.onPage = onPage;
    this.thumbs = byId('thumbs');
    this.thumbsButton = byId('thumbs-toggle');
    this.fullscreenButton = byId('fullscreen-toggle');
    this.help = byId('help-dialog');
    this.mini = byId('mini-counter');
    byId('bars-toggle').addEventListener('click', () => this.toggleBars());
    this.mini.addEventListener('click', () => this.toggleBars(false));
    this.thumbsButton.addEventListener('click', () => this.toggleThumbs());
    this.fullscreenButton.addEventListener('click', () => this.toggleFullscreen());
    byId('help-toggle').addEventListener('click', () => this.toggleHelp());
    this.help.addEventListener('close', () => { this.reader.dataset.help = 'false'; });
    document.addEventListener('fullscreenchange', () => {
      const on = Boolean(document.fullscreenElement);
      this.reader.dataset.fullscreen = String(on);
      this.fullscreenButton.setAttribute('aria-pressed', String(on));
    });
    // Full screen is not offered where the browser has no Fullscreen API (iPhone Safari).
    if (!document.fullscreenEnabled) this.fullscreenButton.hidden = true;
  }

  /** The letter keys' actions on the surroundings (see input.js). */
  keys() {
    return {
      toggleBars: () => this.toggleBars(), fullscreen: () => this.toggleFullscreen(), thumbs: () => this.toggleThumbs(),
      help: () => this.toggleHelp(), helpOpen: () => this.helpOpen(),
    };
  }

  /** Hides or shows the bars (`hidden` forces one way); a small page counter stays while they are hidden. */
  toggleBars(hidden = !this.reader.classList.contains('bars-hidden')) {
    this.reader.classList.toggle('bars-hidden', hidden);
    this.reader.dataset.bars = hidden ? 'hidden' : 'shown';
  }

  toggleFullscreen() {
    this.fullscreenButton.blur();
    if (document.fullscreenElement) {
      document.exitFullscreen().catch(() => {});
    } else if (document.fullscreenEnabled) {
      document.documentElement.requestFullscreen().catch(() => {});
    }
  }

  toggleHelp() {
    if (this.help.open) {
      this.help.close();
    } else {
      this.help.showModal();
      this.reader.dataset.help = 'true';
    }
  }

  helpOpen() {
    return this.help.open;
  }

  toggleThumbs(show = this.thumbs.hidden) {
    this.thumbs.hidden = !show;
    this.reader.dataset.thumbs = String(show);
    this.thumbsButton.setAttribute('aria-pressed', String(show));
    this.thumbsButton.blur();
    const current = this.thumbs.querySelector('[aria-current="page"]');
    if (show && current) current.scrollIntoView({ block: 'nearest', inline: 'center' });
  }

  /** One button per page of the chapter; the images load lazily, when the strip is open and they scroll into view. */
  drawThumbs(urls) {
    this.thumbs.replaceChildren(...urls.map((url, i) => {
      const button = el('button', { type: 'button', class: 'thumb', 'data-page': i + 1, 'aria-label': `Page ${i + 1}` },
        el('img', { src: url, alt: '', loading: 'lazy', decoding: 'async', draggable: 'false' }),
        el('span', { class: 'thumb-number', text: String(i + 1), 'aria-hidden': 'true' }));
      button.addEventListener('click', () => {
        button.blur();
        this.onPage(i + 1);
      });
      return button;
    }));
  }

  /** Marks the pages shown now in the strip and in the small counter. */
  showing(pages, count, text) {
    this.mini.textContent = text;
    for (const button of this.thumbs.children) {
      if (pages.includes(Number(button.dataset.page))) button.setAttribute('aria-current', 'page');
      else button.removeAttribute('aria-current');
    }
    const current = this.thumbs.querySelector('[aria-current="page"]');
    if (!this.thumbs.hidden && current) current.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}
