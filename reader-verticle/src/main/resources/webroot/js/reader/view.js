// Page view: one spread of one or two pages at a time (paged modes), or all pages in a vertical strip whose current
// page is observed.
import { el } from '../dom.js';
import { croppedCanvas } from './crop.js';

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
    this.direction = 'ltr';
    this.current = 0;
    this.observer = null;
    this.visible = new Set();
    this.pin = null;
    this.endNode = null;
    this.scrollQueued = false;
    this.shownWaiters = [];
    stage.addEventListener('scroll', () => {
      if (this.mode !== 'strip' || this.scrollQueued) return;
      this.scrollQueued = true;
      requestAnimationFrame(() => {
        this.scrollQueued = false;
        this.evaluateStrip();
      });
    }, { passive: true });
  }

  /**
   * Draws a chapter's pages: mode 'strip' scrolls them all; any other mode shows one spread (a list of pages) at a
   * time, set with showSpread().
   */
  render(urls, mode, page, endNode, { crop = false } = {}) {
    this.urls = urls;
    this.mode = mode;
    this.endNode = endNode;
    this.crop = crop;
    this.teardownStrip();
    if (mode === 'strip') this.buildStrip(page);
    else this.buildPaged();
  }

  /** Shows a page of the long strip. */
  show(page) {
    if (this.mode === 'strip') this.scrollToPage(page);
  }

  /** Scrolls the stage by a fraction of its height (arrow keys, Page Up/Down). */
  scrollByFraction(fraction) {
    this.stage.scrollBy({ top: this.stage.clientHeight * fraction, behavior: 'smooth' });
  }

  /** Crop borders on or off for the pages shown next (and the ones shown now). */
  setCrop(crop) {
    this.crop = crop;
    if (this.mode === 'strip' || !this.slots) return;
    for (const slot of this.slots) {
      if (!slot.hidden) this.applyCrop(slot);
    }
  }

  // ----- paged: one spread of one or two pages -----

  buildPaged() {
    this.slots = [this.makeSlot(), this.makeSlot()];
    this.spinner = el('div', { class: 'reader-spinner', hidden: true, 'aria-hidden': 'true' });
    this.spread = el('div', { class: 'spread' }, this.slots);
    this.end = el('div', { class: 'end-screen', id: 'end-screen', hidden: true });
    this.paged = el('div', { class: 'paged' }, this.spread, this.end);
    this.stage.replaceChildren(this.paged, this.spinner);
    this.spreadPages = [];
  }

  makeSlot() {
    // elementtiming: the browser records when a page is first painted (PerformanceElementTiming), for measuring.
    const img = el('img', { class: 'page-img', alt: '', draggable: 'false', decoding: 'async', elementtiming: 'page' });
    const error = el('div', { class: 'page-error', hidden: true });
    const slot = el('figure', { class: 'page-slot', hidden: true }, img, error);
    slot.img = img;
    slot.error = error;
    img.addEventListener('load', () => this.loaded(slot));
    img.addEventListener('error', () => this.failed(slot));
    return slot;
  }

  /** Shows the pages of one spread side by side (in the reading direction: the stylesheet reverses rtl). */
  showSpread(pages, force = false) {
    if (this.mode === 'strip' || !this.slots) return;
    this.spreadPages = pages;
    this.current = pages[0];
    this.end.hidden = true;
    this.spread.hidden = false;
    this.spread.dataset.pages = pages.join('-');
    this.spread.dataset.count = String(pages.length);
    this.slots.forEach((slot, i) => {
      const page = pages[i];
      slot.hidden = !page;
      if (page) this.setImage(slot, page, force);
    });
    this.stage.scrollTop = 0;
    this.stage.scrollLeft = this.direction === 'rtl' ? this.stage.scrollWidth : 0;
  }

  /** Shows the end of the chapter instead of pages (paged modes). */
  showEnd(nodes) {
    if (this.mode === 'strip' || !this.slots) return;
    this.spread.hidden = true;
    this.end.replaceChildren(...nodes);
    this.end.hidden = false;
    this.spinner.hidden = true;
    const focus = this.end.querySelector('button, a');
    if (focus) focus.focus({ preventScroll: true });
  }

  setImage(slot, page, force) {
    const url = this.urls[page - 1];
    slot.dataset.page = String(page);
    slot.error.hidden = true;
    slot.img.hidden = false;
    slot.img.alt = `Page ${page} of ${this.urls.length}`;
    if (force || slot.img.dataset.src !== url) {
      if (slot.canvas) slot.canvas.remove();
      slot.canvas = null;
      slot.img.dataset.src = url;
      slot.img.classList.add('loading');
      clearTimeout(this.spinnerTimer);
      this.spinnerTimer = setTimeout(() => {
        this.spinner.hidden = !this.slots.some((s) => !s.hidden && s.img.classList.contains('loading'));
      }, 200);
      slot.img.src = url;
    } else if (!slot.img.classList.contains('loading')) {
      this.applyCrop(slot);
    }
  }

  /** Resolves once the pages shown now have loaded or failed (at once in the strip, or when they have). */
  whenShown() {
    if (this.mode === 'strip' || !this.slots || !this.showing()) return Promise.resolve();
    return new Promise((resolve) => this.shownWaiters.push(resolve));
  }

  showing() {
    return this.slots.some((s) => !s.hidden && s.img.classList.contains('loading'));
  }

  loaded(slot) {
    slot.img.classList.remove('loading');
    if (!this.showing()) {
      clearTimeout(this.spinnerTimer);
      this.spinner.hidden = true;
      this.shownWaiters.splice(0).forEach((resolve) => resolve());
    }
    if (slot.img.naturalWidth) this.applyCrop(slot);
  }

  /** Crop on: the page is drawn trimmed on a canvas in the image's place; off: the image itself. */
  applyCrop(slot) {
    if (!this.crop) {
      if (slot.canvas) slot.canvas.hidden = true;
      slot.img.hidden = !slot.error.hidden;
      slot.dataset.cropped = 'false';
      return;
    }
    if (!slot.canvas && slot.img.complete && slot.img.naturalWidth) {
      slot.canvas = croppedCanvas(slot.img);
      if (slot.canvas) {
        slot.canvas.className = 'page-img';
        slot.canvas.setAttribute('role', 'img');
        slot.canvas.setAttribute('aria-label', slot.img.alt);
        slot.img.after(slot.canvas);
      }
    }
    if (slot.canvas) {
      slot.canvas.hidden = false;
      slot.img.hidden = true;
    }
    slot.dataset.cropped = String(Boolean(slot.canvas));
  }

  failed(slot) {
    this.loaded(slot);
    slot.img.hidden = true;
    const page = Number(slot.dataset.page);
    const retry = el('button', { type: 'button', text: 'Try again' });
    retry.addEventListener('click', () => {
      retry.blur();
      this.setImage(slot, page, true);
    });
    slot.error.replaceChildren(el('p', { text: `Page ${page} could not be loaded.` }), retry);
    slot.error.hidden = false;
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
