// The reading settings' controls (layout, direction, fit, offset, crop) and the reader's data attributes that show
// them to the stylesheet and to tests.
import { byId } from '../dom.js';

export class SettingsBar {
  /**
   * @param reader the #reader element
   * @param onChange called with the changed keys, e.g. {layout: 'double'}
   */
  constructor(reader, { onChange }) {
    this.reader = reader;
    this.layout = byId('layout-select');
    this.direction = byId('mode-select');
    this.fit = byId('fit-select');
    this.offset = byId('offset-toggle');
    this.crop = byId('crop-toggle');
    this.slider = byId('page-slider');
    this.settings = null;
    this.drawn = 'single';
    this.onChange = onChange;
    const pick = (select, key) => select.addEventListener('change', () => {
      select.blur();
      onChange({ [key]: select.value });
    });
    pick(this.layout, 'layout');
    pick(this.direction, 'direction');
    pick(this.fit, 'fit');
    const flip = (button, key) => button.addEventListener('click', () => {
      button.blur();
      if (this.settings) onChange({ [key]: !this.settings[key] });
    });
    flip(this.offset, 'offset');
    flip(this.crop, 'crop');
  }

  /** The settings are known (loaded from the server or this browser): tests wait for this mark. */
  ready() {
    this.reader.dataset.settings = 'ready';
  }

  /** The letter keys' settings actions (see input.js). */
  keys() {
    const flip = (key) => () => this.settings && this.onChange({ [key]: !this.settings[key] });
    const layout = (other) => () => this.onChange({ layout: this.drawn === other ? 'single' : other });
    return {
      double: layout('double'), strip: layout('strip'), offset: flip('offset'), crop: flip('crop'),
      direction: () => this.settings && this.onChange({ direction: this.settings.direction === 'rtl' ? 'ltr' : 'rtl' }),
    };
  }

  /** Shows `settings` in the controls; `layout` is the one drawn ('auto' resolved). */
  show(settings, layout) {
    this.settings = settings;
    this.drawn = layout;
    const { direction, fit, offset, crop } = settings;
    const dataset = this.reader.dataset;
    dataset.layoutChoice = settings.layout;
    dataset.layout = layout;
    dataset.direction = direction;
    // data-mode: what the stylesheet (and older tests) read: 'strip', else the reading direction.
    dataset.mode = layout === 'strip' ? 'strip' : direction;
    dataset.fit = fit;
    dataset.offset = String(offset);
    dataset.crop = String(crop);
    this.layout.value = settings.layout;
    this.direction.value = direction;
    this.fit.value = fit;
    this.offset.setAttribute('aria-pressed', String(offset));
    this.crop.setAttribute('aria-pressed', String(crop));
    // Offset only matters when two pages are shown together.
    this.offset.disabled = layout !== 'double';
    this.slider.dir = direction === 'rtl' && layout !== 'strip' ? 'rtl' : 'ltr';
  }
}
