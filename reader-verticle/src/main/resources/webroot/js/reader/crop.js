// Border cropping: finds the white or black margins around a page and draws the page without them on a canvas.

/** How far a pixel may stray from the border colour and still count as border (0-255 per channel). */
const TOLERANCE = 24;
/** Pages are measured on a copy this many pixels on its longer side: enough to find margins, cheap to scan. */
const PROBE = 400;
/** A margin thinner than this share of the side is left alone (not worth moving the page for). */
const MIN_SHARE = 0.01;

/**
 * The content box of an image as fractions of its size {left, top, right, bottom}, or null when there is no margin
 * worth trimming. The border colour is the one of the top-left corner, when it is near white or near black.
 */
export function contentBox(image) {
  const scale = Math.min(1, PROBE / Math.max(image.naturalWidth, image.naturalHeight));
  const w = Math.max(1, Math.round(image.naturalWidth * scale));
  const h = Math.max(1, Math.round(image.naturalHeight * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.drawImage(image, 0, 0, w, h);
  let data;
  try {
    data = context.getImageData(0, 0, w, h).data;
  } catch (e) {
    return null; // a cross-origin image taints the canvas: shown uncropped
  }
  const corner = [data[0], data[1], data[2]];
  const light = corner.every((c) => c >= 255 - TOLERANCE);
  const dark = corner.every((c) => c <= TOLERANCE);
  if (!light && !dark) return null;
  const border = (x, y) => {
    const i = (y * w + x) * 4;
    return Math.abs(data[i] - corner[0]) <= TOLERANCE && Math.abs(data[i + 1] - corner[1]) <= TOLERANCE
      && Math.abs(data[i + 2] - corner[2]) <= TOLERANCE;
  };
  const rowBlank = (y) => { for (let x = 0; x < w; x++) if (!border(x, y)) return false; return true; };
  const colBlank = (x, top, bottom) => { for (let y = top; y <= bottom; y++) if (!border(x, y)) return false; return true; };
  let top = 0;
  while (top < h - 1 && rowBlank(top)) top++;
  let bottom = h - 1;
  while (bottom > top && rowBlank(bottom)) bottom--;
  let left = 0;
  while (left < w - 1 && colBlank(left, top, bottom)) left++;
  let right = w - 1;
  while (right > left && colBlank(right, top, bottom)) right--;
  const box = { left: left / w, top: top / h, right: (right + 1) / w, bottom: (bottom + 1) / h };
  const trimmed = box.left > MIN_SHARE || box.top > MIN_SHARE || 1 - box.right > MIN_SHARE || 1 - box.bottom > MIN_SHARE;
  return trimmed && right > left && bottom > top ? box : null;
}

/** A canvas showing the image without its margins at full resolution, or null when nothing is trimmed. */
export function croppedCanvas(image) {
  const box = contentBox(image);
  if (!box) return null;
  const sx = Math.round(box.left * image.naturalWidth);
  const sy = Math.round(box.top * image.naturalHeight);
  const sw = Math.max(1, Math.round(box.right * image.naturalWidth) - sx);
  const sh = Math.max(1, Math.round(box.bottom * image.naturalHeight) - sy);
  const canvas = document.createElement('canvas');
  canvas.width = sw;
  canvas.height = sh;
  canvas.getContext('2d').drawImage(image, sx, sy, sw, sh, 0, 0, sw, sh);
  return canvas;
}
