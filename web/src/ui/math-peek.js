// Math Peek: the ledger formula with every symbol bound to the engine's numbers for the scenario on
// screen (selected optimizer). A native <details>, so it opens and closes from the keyboard. The
// lines (and the check that a bound formula gives the engine's figure) come from peek-model.js,
// fetched when the peek is first opened: it starts closed, and the first screen has a byte budget
// (250 KB gzipped). While closed, an update only keeps its arguments.
import { h, replaceChildren } from './dom.js';

let model = null;
const loadModel = () => (model ||= import('../models/peek-model.js'));

function line(l) {
  return h('div', { class: 'peek-line', 'data-line': l.key },
    h('dt', { text: l.label }),
    h('dd', {}, h('span', { class: 'peek-formula', text: l.formula }),
      l.op ? [h('span', { class: 'peek-eq', text: ` ${l.op} ` }), h('strong', { class: 'peek-value', text: l.value })] : null,
      l.note ? h('span', { class: 'peek-note', text: ` ${l.note}` }) : null));
}

export class MathPeek {
  constructor(container) {
    this.body = h('dl', { class: 'peek' });
    this.el = h('details', { class: 'math-peek' },
      h('summary', { text: 'Math Peek: the ledger formula with your numbers' }),
      h('p', { class: 'peek-lead', text: 'Training memory = N × (W + M + G + O) + activations + logits + reserve, where N is the parameter count and W, M, G, O are bytes per parameter for the weights, the FP32 master copy, the gradients and the optimizer state. “≈” marks a sum whose rounded terms differ from the rounded total in the last digit.' }),
      this.body);
    this.args = null;
    this.el.addEventListener('toggle', () => { if (this.el.open) this.render(); });
    container.append(this.el);
  }

  // result: the engine's result for the selected optimizer; opts.withoutCheckpointing: a function
  // giving the same scenario's result without checkpointing (for the "without checkpointing" figure),
  // or null; it is called only when the peek is drawn.
  update(result, units = 'gb', opts = {}) {
    this.args = [result, units, opts];
    if (this.el.open) this.render();
  }

  render() {
    const args = this.args;
    if (!args) return;
    this.el.setAttribute('aria-busy', 'true');
    loadModel().then(({ peekLines }) => {
      if (args !== this.args) return; // a newer update is drawing
      const [result, units, { withoutCheckpointing = null } = {}] = args;
      replaceChildren(this.body, peekLines(result, units, { withoutCheckpointing: withoutCheckpointing ? withoutCheckpointing() : null }).map(line));
      this.el.removeAttribute('aria-busy');
    }, (err) => {
      model = null; // try again on the next open
      replaceChildren(this.body, h('p', { class: 'panel__note', role: 'alert',
        text: `Could not load the Math Peek: part of the lab did not arrive from the site (the network may be off). Close and open it again to retry. (Details: ${err && err.message ? err.message : err})` }));
      this.el.removeAttribute('aria-busy');
    });
  }
}
