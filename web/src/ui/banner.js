// The status banner shared by the acts: renders { state: 'ok' | 'oom' | 'invalid' | 'error', icon,
// title, text, lines } into a role="status" region, updated in place so a screen reader hears only
// what changed. The state sets the look (colour and border pattern) and the default icon, so an
// invalid state can never borrow the success look. Which state applies: fit-state.js.
import { h, setText, setAttr, setHidden, setParagraphs, replaceChildren } from './dom.js';
import { STATE_ICONS, fitState } from '../models/fit-state.js';

export { STATE_ICONS, fitState };
const STATES = ['ok', 'oom', 'invalid', 'error'];

export class Banner {
  constructor({ className = 'banner' } = {}) {
    this.base = className;
    this.el = h('div', { class: className, role: 'status', 'aria-atomic': 'true' });
    this.icon = h('span', { class: 'banner__icon', 'aria-hidden': 'true' });
    this.title = h('span', { class: 'banner__title-text' });
    this.iconWord = h('span', { class: 'visually-hidden' });
    this.text = h('p', { class: 'banner__text' });
    this.extra = h('div', { class: 'banner__extra' });
    this.body = [h('p', { class: 'banner__title' }, this.icon, this.iconWord, ' ', this.title), this.text, this.extra];
  }

  // spec: { state, icon?, title, text?, lines?: [string] }
  update(spec) {
    const state = STATES.includes(spec.state) ? spec.state : 'error';
    if (this.el.firstChild !== this.body[0]) replaceChildren(this.el, this.body);
    const cls = `${this.base} ${this.base}--${state}`;
    if (this.el.className !== cls) this.el.className = cls;
    setAttr(this.el, 'data-state', state);
    setText(this.icon, spec.icon || STATE_ICONS[state]);
    setText(this.iconWord, state === 'invalid' ? 'Warning: ' : '');
    setText(this.title, spec.title || '');
    setText(this.text, spec.text || '');
    setHidden(this.text, !spec.text);
    // Lines are rewritten in place (a new paragraph only for a line that was not there): after each
    // Act 2 input the numbers in them change, not how many there are.
    setParagraphs(this.extra, spec.lines || [], 'banner__text banner__line');
  }
}

// One-off helper: a Banner's element for `spec`.
export function renderBanner(spec, options) {
  const b = new Banner(options);
  b.update(spec);
  return b.el;
}
