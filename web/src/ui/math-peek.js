// Math Peek: the ledger formula with every symbol bound to the engine's numbers for the scenario on
// screen (selected optimizer). A native <details>, so it opens and closes from the keyboard.
import { h, replaceChildren } from './dom.js';
import { formatBytes, formatInt } from '../format.js';

function line(label, formula, value) {
  return h('div', { class: 'peek-line' },
    h('dt', { text: label }),
    h('dd', {}, h('span', { class: 'peek-formula' }, formula), h('span', { class: 'peek-eq', text: ' = ' }), h('strong', { class: 'peek-value', text: value })));
}

export class MathPeek {
  constructor(container) {
    this.body = h('dl', { class: 'peek' });
    this.el = h('details', { class: 'math-peek' },
      h('summary', { text: 'Math Peek: the ledger formula with your numbers' }),
      h('p', { class: 'peek-lead', text: 'Training memory = N × (W + M + G + O) + activations + logits + reserve, where N is the parameter count and W, M, G, O are bytes per parameter for the weights, the FP32 master copy, the gradients and the optimizer state.' }),
      this.body);
    container.append(this.el);
  }

  update(result, units = 'gb') {
    const m = result.memory;
    const b = m.bytes_per_parameter;
    const f = (x) => formatBytes(x, units);
    const d = m.activations_detail;
    const c = m.components;
    const sc = result.scenario;
    const md = result.model;
    const lines = [
      line('Symbols', [`N = ${formatInt(m.parameters_counted)} parameters; L = ${md.layers} layers, h = ${md.hidden}, a = ${md.heads} heads; s = ${sc.seq_len} tokens, b = ${sc.batch_size}; activations at ${d.element_bytes} B per element`], `${b.static} B per parameter static`),
      line('Static', [h('var', { text: 'N' }), ' × (W + M + G + O) = ', formatInt(m.parameters_counted), ` × (${b.weights} + ${b.master_weights} + ${b.gradients} + ${b.optimizer_state}) B`], f(m.static_bytes)),
      line('Optimizer state', [h('var', { text: 'N' }), ` × O = ${formatInt(m.parameters_counted)} × ${b.optimizer_state} B`, m.optimizer_vectors.length ? ` (${m.optimizer_vectors.length} FP32 vector${m.optimizer_vectors.length > 1 ? 's' : ''})` : ''], f(c.optimizer_state)),
      line('Activations', [d.formula, `; ${d.layers_saving} layers saving, ${formatInt(d.per_layer_saved_bytes)} B each (${formatInt(d.per_layer_full_bytes)} B without checkpointing)`], f(c.activations)),
    ];
    if (c.logits > 0 || c.reserve > 0) {
      lines.push(line('Logits + reserve', [`logits ${f(c.logits)} + framework/context reserve ${f(c.reserve)}`], f(c.logits + c.reserve)));
    }
    lines.push(line('Total (steady)', ['static + activations + logits + reserve'], f(m.total_bytes)));
    lines.push(line('Peak (backward)', [`total + logits gradient ${f(m.transients.logits_gradient)} + recompute working set ${f(m.transients.recompute_working_set)}`], f(m.peak_bytes)));
    lines.push(line('Device budget', ['usable device memory'], f(m.usable_device_bytes)));
    replaceChildren(this.body, lines);
  }
}
