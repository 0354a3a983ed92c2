// Reader input: keys on the document, tap zones and horizontal swipes on the stage, mapped to reader actions.

const SWIPE_MIN_PX = 50;

/** Phones and touch screens: there the middle third hides the bars (on a desktop they stay put). */
const compact = window.matchMedia('(max-width: 760px), (pointer: coarse)');
const SWIPE_MAX_MS = 1000;

/** The letter keys and the action each one calls. */
const LETTERS = {
  d: 'double', o: 'offset', r: 'direction', s: 'strip', c: 'crop', f: 'fullscreen', h: 'toggleBars', t: 'thumbs',
  '?': 'help',
};

/** True while the page is pinch-zoomed: then a swipe pans the zoomed page and a tap does not turn it. */
function zoomed() {
  return Boolean(window.visualViewport && window.visualViewport.scale > 1.01);
}

/** True for controls that need the keys themselves (text fields, selects, sliders). */
function wantsKeys(target) {
  if (!(target instanceof Element)) return false;
  return target.isContentEditable || target.matches('input, textarea, select');
}

/**
 * @param stage the element holding the pages
 * @param mode () => 'ltr' | 'rtl' | 'strip'
 * @param actions {forward, backward, first, last, back, toggleBars, scroll(fraction), and the letter keys' actions:
 *   double, offset, direction, strip, crop, fullscreen, thumbs, help, helpOpen() (true while the help is shown)}
 */
export function bindInput(stage, mode, actions) {
  const towardsLeft = () => (mode() === 'rtl' ? actions.forward() : actions.backward());
  const towardsRight = () => (mode() === 'rtl' ? actions.backward() : actions.forward());

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
    if (wantsKeys(event.target)) return;
    // While the help is open its own keys apply (Esc closes it; ? too); the pages stay put behind it.
    if (actions.helpOpen()) {
      if (event.key === '?') {
        actions.help();
        event.preventDefault();
      }
      return;
    }
    const letter = event.key.length === 1 ? LETTERS[event.key.toLowerCase()] : undefined;
    if (letter) {
      actions[letter]();
      event.preventDefault();
      return;
    }
    const onButton = event.target instanceof Element && event.target.matches('button, a[href]');
    switch (event.key) {
      case 'ArrowRight': towardsRight(); break;
      case 'ArrowLeft': towardsLeft(); break;
      case ' ':
      case 'Spacebar':
        if (onButton) return;
        if (event.shiftKey) actions.backward();
        else actions.forward();
        break;
      case 'Home': actions.first(); break;
      case 'End': actions.last(); break;
      case 'Escape': actions.back(); break;
      case 'ArrowDown': actions.scroll(0.2); break;
      case 'ArrowUp': actions.scroll(-0.2); break;
      case 'PageDown': actions.scroll(0.9); break;
      case 'PageUp': actions.scroll(-0.9); break;
      default: return;
    }
    event.preventDefault();
  });

  // Swipes: horizontal moves in the paged modes turn pages the way the pages lie.
  let start = null;
  // Set by a swipe and cleared by the next press: a mouse drag ends with a click after its pointerup, and that click
  // belongs to the swipe. Tied to the press, not to a time window, so a quick tap after a swipe still counts.
  let swiped = false;
  stage.addEventListener('pointerdown', (event) => {
    swiped = false;
    start = event.isPrimary && mode() !== 'strip' && !zoomed()
      ? { id: event.pointerId, x: event.clientX, y: event.clientY, at: event.timeStamp } : null;
  });
  stage.addEventListener('pointercancel', () => { start = null; });
  stage.addEventListener('pointerup', (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    const quick = event.timeStamp - start.at <= SWIPE_MAX_MS;
    start = null;
    if (!quick || Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    swiped = true;
    // Swiping left brings in the page on the right, and the other way round.
    if (dx < 0) towardsRight();
    else towardsLeft();
  });
  stage.addEventListener('dragstart', (event) => event.preventDefault());

  // Taps: left and right thirds turn pages the way the pages lie; on phones the middle third shows or hides the bars.
  stage.addEventListener('click', (event) => {
    if (swiped) return;
    if (event.target instanceof Element && event.target.closest('a, button, input, select, label')) return;
    if (zoomed()) return;
    const box = stage.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width;
    if (x < 1 / 3) towardsLeft();
    else if (x > 2 / 3) towardsRight();
    else if (compact.matches) actions.toggleBars();
  });
}
