// Math Peek: the ledger formula with every symbol bound to the engine's numbers for the scenario on
// screen (selected optimizer). A native <details>, so it opens and closes from the keyboard. The
// lines (and the check that a bound formula gives the engine's figure) come from peek-model.js.
import { h, replaceChildren } from './dom.js';
import { peekLines } from '../peek-model.js';

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
    container.append(this.el);
  }

  // result: the engine's result for the selected optimizer; opts.withoutCheckpointing: the same
  // scenario without checkpointing (for the "without checkpointing" figure), or null.
  update(result, units = 'gb', opts = {}) {
    replaceChildren(this.body, peekLines(result, units, opts).map(line));
  }
}
