// Preloading: warms the browser cache with the next pages of this chapter and the first pages of the next one.

const KEEP = 32;

export class Preloader {
  constructor() {
    this.images = new Map();
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
