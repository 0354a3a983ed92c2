// Preloading: warms the browser cache with the next pages of this chapter and the first pages of the next one, and
// measures pages for the double-page pairing.

const KEEP = 32;

export class Preloader {
  constructor() {
    this.images = new Map();
    this.measured = new Map();
  }

  /**
   * Learns the natural size of each page (double-page pairing needs it), calling onSize(index, width, height) as each
   * one arrives; a page already measured answers at once. Measuring loads the images, which the reader shows next.
   */
  measure(urls, onSize) {
    urls.forEach((url, index) => {
      const known = this.measured.get(url);
      if (known && known.width) {
        onSize(index, known.width, known.height);
        return;
      }
      if (known) {
        known.waiting.push(() => onSize(index, known.width, known.height));
        return;
      }
      const image = new Image();
      const entry = { width: 0, height: 0, waiting: [() => onSize(index, entry.width, entry.height)] };
      this.measured.set(url, entry);
      image.decoding = 'async';
      image.addEventListener('load', () => {
        entry.width = image.naturalWidth;
        entry.height = image.naturalHeight;
        entry.waiting.splice(0).forEach((call) => call());
      });
      image.addEventListener('error', () => this.measured.delete(url));
      image.src = url;
    });
  }

  /** Starts loading each URL not already loading; keeps the newest few Image objects alive. */
  load(urls) {
    for (const url of urls) {
      if (!url || this.images.has(url)) continue;
      const image = new Image();
      image.decoding = 'async';
      image.src = url;
      this.images.set(url, image);
    }
    while (this.images.size > KEEP) {
      this.images.delete(this.images.keys().next().value);
    }
  }
}
