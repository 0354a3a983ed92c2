// Reading settings (layout, direction, fit, offset, crop): kept on the server per series per user, with
// localStorage as the fallback when the server cannot answer (offline, or a server without the settings API).
import { getJson, putJson, seriesPath } from '../api.js';

const LAYOUTS = ['single', 'double', 'strip', 'auto'];
const DIRECTIONS = ['ltr', 'rtl'];
const FITS = ['width', 'height', 'original'];
const DEFAULT_KEY = 'mc.reader.default';
const seriesKey = (seriesId) => `mc.reader.series.${seriesId}`;

export const isLayout = (value) => LAYOUTS.includes(value);
export const isDirection = (value) => DIRECTIONS.includes(value);
export const isFit = (value) => FITS.includes(value);

function readLocal(key) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || 'null');
    return value && typeof value === 'object' ? value : null;
  } catch (e) {
    return null;
  }
}

function writeLocal(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    // storage full or disabled: the server copy (if any) still holds the choice
  }
}

/** The first-run choice: one page at a time, fit the height on wide screens and the width on phones. */
export function builtIn() {
  return {
    layout: 'single', direction: 'ltr', offset: false, crop: false,
    fit: window.matchMedia('(max-width: 760px)').matches ? 'width' : 'height',
  };
}

/**
 * A complete settings object from a partial one, missing or bad keys taken from `base`. Reads the older local shape
 * too ({mode: 'ltr' | 'rtl' | 'strip', fit}): 'strip' becomes the strip layout, 'rtl' the right-to-left direction.
 */
export function complete(value, base = builtIn()) {
  if (!value || typeof value !== 'object') return null;
  const v = { ...value };
  if (v.layout === undefined && v.direction === undefined && typeof v.mode === 'string') {
    v.layout = v.mode === 'strip' ? 'strip' : 'single';
    v.direction = v.mode === 'rtl' ? 'rtl' : 'ltr';
  }
  return {
    layout: isLayout(v.layout) ? v.layout : base.layout,
    direction: isDirection(v.direction) ? v.direction : base.direction,
    fit: isFit(v.fit) ? v.fit : base.fit,
    offset: typeof v.offset === 'boolean' ? v.offset : base.offset,
    crop: typeof v.crop === 'boolean' ? v.crop : base.crop,
  };
}

const settingsPath = (seriesId) => seriesPath(seriesId, 'reading-settings');

/**
 * The settings for a series: GET from the server (the series' own, else the user's defaults); when the server has
 * nothing for the series but this browser does (older versions kept it locally), the local choice is used and sent
 * to the server once. When the call fails: this browser's copy for the series, else its default, else built-in.
 * Resolves with {settings, source: 'series' | 'defaults' | 'local' | 'built-in'}.
 */
export async function loadSettings(seriesId) {
  const base = builtIn();
  const localOwn = complete(readLocal(seriesKey(seriesId)), base);
  const localDefault = complete(readLocal(DEFAULT_KEY), base);
  let answer;
  try {
    answer = await getJson(settingsPath(seriesId));
  } catch (e) {
    if (e.redirecting) throw e;
    if (localOwn) return { settings: localOwn, source: 'local' };
    return localDefault ? { settings: localDefault, source: 'local' } : { settings: base, source: 'built-in' };
  }
  const own = complete(answer && answer.series, base);
  if (own) {
    writeLocal(seriesKey(seriesId), own);
    return { settings: own, source: 'series' };
  }
  if (localOwn) {
    putJson(settingsPath(seriesId), localOwn).catch(() => {});
    return { settings: localOwn, source: 'local' };
  }
  const defaults = complete(answer && answer.defaults, base);
  return defaults ? { settings: defaults, source: 'defaults' } : { settings: localDefault || base, source: 'built-in' };
}

/**
 * Keeps a choice for the series: in this browser at once (also as its default for series without their own), and on
 * the server (PUT). A failed PUT leaves the local copy, which the next open uses when the server cannot answer.
 */
export async function saveSettings(seriesId, settings) {
  const clean = complete(settings);
  writeLocal(seriesKey(seriesId), clean);
  writeLocal(DEFAULT_KEY, clean);
  try {
    await putJson(settingsPath(seriesId), clean);
    return { settings: clean, saved: 'server' };
  } catch (e) {
    return { settings: clean, saved: 'local', error: e };
  }
}

/** The layout to draw: 'auto' is two pages on landscape screens wider than 1,000 px, else one. */
export function resolveLayout(layout, width = window.innerWidth, height = window.innerHeight) {
  if (layout !== 'auto') return layout;
  return width > 1000 && width > height ? 'double' : 'single';
}
