// Reader preferences: reading mode and fit, kept in localStorage per series, with a global default.

const MODES = ['ltr', 'rtl', 'strip'];
const FITS = ['width', 'height', 'original'];
const DEFAULT_KEY = 'mc.reader.default';
const seriesKey = (seriesId) => `mc.reader.series.${seriesId}`;

function read(key) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || 'null');
    return value && typeof value === 'object' ? value : null;
  } catch (e) {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    // storage full or disabled: the choice lasts for this page only
  }
}

/** The first-run default: fit the height on wide screens, the width on phones. */
function builtIn() {
  return { mode: 'ltr', fit: window.matchMedia('(max-width: 760px)').matches ? 'width' : 'height' };
}

/** {mode, fit} for a series: its own choice, else the global default, else the built-in one. */
export function loadPrefs(seriesId) {
  const base = builtIn();
  const global = read(DEFAULT_KEY) || {};
  const own = read(seriesKey(seriesId)) || {};
  const pick = (field, allowed) => [own[field], global[field], base[field]].find((v) => allowed.includes(v));
  return { mode: pick('mode', MODES), fit: pick('fit', FITS) };
}

/** Remembers a choice for the series and makes it the default for series without their own. */
export function savePrefs(seriesId, prefs) {
  const clean = { mode: MODES.includes(prefs.mode) ? prefs.mode : 'ltr', fit: FITS.includes(prefs.fit) ? prefs.fit : 'width' };
  write(seriesKey(seriesId), clean);
  write(DEFAULT_KEY, clean);
  return clean;
}

export const isMode = (value) => MODES.includes(value);
export const isFit = (value) => FITS.includes(value);
