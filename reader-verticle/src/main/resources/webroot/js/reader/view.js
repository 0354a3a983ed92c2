// Page view: one page at a time (paged modes) or all pages in a vertical strip whose current page is observed.
import { el } from '../dom.js';

/** How far down the stage the reading line lies: the page crossing it is the current one. */
const READING_LINE = 0.3;

export class PageView {
  /**
   * @param stage the scrolling element that holds the pages
   * @param onStripPage called with the page that crossed the reading line while scrolling the strip
   */
  constructor(stage, { onStripPage }) {
    this.stage = stage;
    this.onStripPage = onStripPage;
    this.urls = [];
    this.mode = null;
    this.current = 0;
    this.observer = null;
    this.visible = new Set();
    this.pin = null;
    this.endNode = null;
    this.scrollQueued = false;
    stage.addEventListener('scroll', () => {
      if (this.mode !== 'strip' || this.scrollQueued) return;
      this.scrollQueued = true;
      requestAnimationFrame(() => {
        this.scrollQueued = false;
        this.evaluateStrip();
      });
    }, { passive: true });
  }

  /** Draws a chapter's pages in a mode, showing `page`. */
  render(urls, mode, page, endNode) {
    this.urls = urls;
    this.mode = mode;
    this.endNode = endNode;
    this.teardownStrip();
    if (mode === 'strip') this.buildStrip(page);
    else this.buildPaged(page);
  }

  /** Shows a page of the chapter already drawn. */
  show(page) {
    if (this.mode === 'strip') this.scrollToPage(page);
    else this.setImage(page);
  }

  /** Scrolls the stage by a fraction of its height (arrow keys, Page Up/Down). */
  scrollByFraction(fraction) {
    this.stage.scrollBy({ top: this.stage.clientHeight * fraction, behavior: 'smooth' });
  }

  // ----- paged -----

  buildPaged(page) {
    this.img = el('img', { class: 'page-img', alt: '', draggable: 'false', decoding: 'async' });
    this.spinner = el('div', { class: 'reader-spinner', hidden: true, 'aria-hidden': 'true' });
    this.error = el('div', { class: 'page-error', hidden: true });
    this.img.addEventListener('load', () => this.loaded());
    this.img.addEventListener('error', () => this.failed());
    this.stage.replaceChildren(el('div', { class: 'paged' }, this.img, this.error), this.spinner);
    this.setImage(page, true);
  }

  setImage(page, force = false) {
    const url = this.urls[page - 1];
    this.current = page;
    this.error.hidden = true;
    this.img.hidden = false;
    this.img.alt = `Page ${page} of ${this.urls.length}`;
    if (force || this.img.dataset.src !== url) {
      this.img.dataset.src = url;
      this.img.classList.add('loading');
      clearTimeout(this.spinnerTimer);
      this.spinnerTimer = setTimeout(() => { this.spinner.hidden = !this.img.classList.contains('loading'); }, 200);
      this.img.src = url;
    }
    this.stage.scrollTop = 0;
    this.stage.scrollLeft = this.mode === 'rtl' ? this.stage.scrollWidth : 0;
  }

  loaded() {
    this.img.classList.remove('loading');
    clearTimeout(this.spinnerTimer);
    this.spinner.hidden = true;
  }

  failed() {
    this.loaded();
    this.img.hidden = true;
    const page = this.current;
    const retry = el('button', { type: 'button', text: 'Try again' });
    retry.addEventListener('click', () => {
      retry.blur();
      this.setImage(page, true);
    });
    this.error.replaceChildren(el('p', { text: `Page ${page} could not be loaded.` }), retry);
    this.error.hidden = false;
  }

  // ----- long strip -----

  buildStrip(page) {
    this.visible.clear();
    this.current = page;
    this.figures = this.urls.map((url, i) => {
      const img = el('img', {
        src: url, alt: `Page ${i + 1} of ${this.urls.length}`, loading: 'lazy', decoding: 'async', draggable: 'false',
      });
      const figure = el('figure', { class: 'strip-page', 'data-page': i + 1 }, img);
      img.addEventListener('load', () => {
        img.classList.add('loaded');
        if (!this.ratioKnown && img.naturalWidth && img.naturalHeight) {
          this.ratioKnown = true;
          this.strip.style.setProperty('--page-ratio', `${img.naturalWidth} / ${img.naturalHeight}`);
        }
      });
      img.addEventListener('error', () => {
        img.classList.add('loaded');
        img.alt = `Page ${i + 1} could not be loaded`;
      });
      return figure;
    });
    this.ratioKnown = false;
    this.strip = el('div', { class: 'strip' }, this.figures, el('div', { class: 'strip-end' }, this.endNode));
    this.stage.replaceChildren(this.strip);
    // The observer's root is a thin band at the reading line.
    const top = READING_LINE * 100;
    this.observer = new IntersectionObserver((entries) => this.intersected(entries), {
      root: this.stage, rootMargin: `-${top}% 0px -${99 - top}% 0px`, threshold: 0,
    });
    this.figures.forEach((figure) => this.observer.observe(figure));
    this.scrollToPage(page);
  }

  teardownStrip() {
    if (this.observer) this.observer.disconnect();
    this.observer = null;
    this.visible.clear();
    this.pin = null;
  }

  scrollToPage(page) {
    const figure = this.figures && this.figures[page - 1];
    if (!figure) return;
    this.current = page;
    this.stage.scrollTop = figure.offsetTop;
    this.pin = { page, top: this.stage.scrollTop };
  }

  intersected(entries) {
    for (const entry of entries) {
      const page = Number(entry.target.dataset.page);
      if (entry.isIntersecting) this.visible.add(page);
      else this.visible.delete(page);
    }
    this.evaluateStrip();
  }

  /** Picks the page on the reading line, unless the view still rests where a jump put it. */
  evaluateStrip() {
    if (this.mode !== 'strip' || !this.figures || !this.figures.length) return;
    if (this.pin) {
      if (Math.abs(this.stage.scrollTop - this.pin.top) < 3) return;
      this.pin = null;
    }
    // The observer names the page on the line; after a long jump (the line landed past the last page, or
    // between observations) the page is found from the layout: the last one starting above the line.
    let page = this.visible.size ? Math.max(...this.visible) : 0;
    if (!page) {
      const line = this.stage.scrollTop + this.stage.clientHeight * READING_LINE;
      let low = 0;
      let high = this.figures.length - 1;
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (this.figures[mid].offsetTop <= line) low = mid;
        else high = mid - 1;
      }
      page = low + 1;
    }
    if (page !== this.current) {
      this.current = page;
      this.onStripPage(page);
    }
  }
}
