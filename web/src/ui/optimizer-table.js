// The optimizer comparison table: SGD / Momentum / Adam for GPT-2 XL in FP32 under both conventions
// ("weights + optimizer state", the chapter's 1×/2×/3×, and "static incl. gradients", 2×/3×/4×), the
// static memory at the precision on screen, and the chapter's convergence figures (sourced constants).
// When its columns would not fit its box (a phone, 200% zoom, a narrow column) it becomes one card
// per optimizer (table--cards, styles.css), so nothing is cut or has to be scrolled to.
import { h, replaceChildren, scrollBox, setText } from './dom.js';
import { formatBytes, formatInt, formatMultiple, unitOf } from '../format/format.js';
import { OPTIMIZERS, LABELS } from '../state/scenario.js';
import { CONVERGENCE } from '../content/act1-text.js';
import { afterResize } from './after-paint.js';

const VECTOR_NAMES = { momentum: 'momentum', adam_m: 'm', adam_v: 'v' };

// fp32: { sgd, momentum, adam } engine results in FP32; current: the same at the selected precision.
export function optimizerRows(fp32, current) {
  const unit = fp32.sgd.memory.components.weights;
  return OPTIMIZERS.map((opt) => {
    const m = fp32[opt].memory;
    const wo = m.components.weights + m.components.master_weights + m.components.optimizer_state;
    return {
      optimizer: opt,
      vectors: m.optimizer_vectors.map((v) => VECTOR_NAMES[v.name] || v.name),
      wo_bytes: wo, wo_multiple: wo / unit,
      static_bytes: m.static_bytes, static_multiple: m.static_bytes / unit,
      current_static_bytes: current[opt].memory.static_bytes,
      steps: CONVERGENCE[opt],
    };
  });
}

export class OptimizerTable {
  constructor(container) {
    this.caption = h('caption');
    this.tbody = h('tbody');
    this.precHead = h('th', { scope: 'col' });
    const thead = h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: 'Optimizer' }),
      h('th', { scope: 'col', text: 'Extra vectors' }),
      h('th', { scope: 'col' }, 'Weights + optimizer state', h('br'), h('span', { class: 'th-sub', text: 'chapter’s convention, FP32' })),
      h('th', { scope: 'col' }, 'Static incl. gradients', h('br'), h('span', { class: 'th-sub', text: 'FP32' })),
      this.precHead,
      h('th', { scope: 'col' }, 'Steps to converge', h('br'), h('span', { class: 'th-sub', text: 'GPT-2, from the chapter' }))));
    this.table = h('table', { class: 'data-table optimizer-table table--reflow' }, this.caption, thead, this.tbody);
    this.box = scrollBox(this.table, 'Optimizer comparison table');
    container.append(this.box);
    if (typeof ResizeObserver === 'function') {
      this.boxWidth = -1;
      // In the next frame (see after-paint.js afterResize): fit() changes the box it observes.
      this.resizer = new ResizeObserver(() => afterResize(this, () => { if (this.box.clientWidth !== this.boxWidth) this.fit(); }));
      this.resizer.observe(this.box);
    }
  }

  // Cards when the table, laid out as a table, is wider than its box.
  fit() {
    const t = this.table;
    this.boxWidth = this.box.clientWidth;
    if (!this.boxWidth) return;
    t.classList.remove('table--cards');
    t.classList.toggle('table--cards', this.box.scrollWidth > this.boxWidth + 1);
  }

  // replay: Chapter replay is on, so the figures are the chapter's (1.5 billion parameters), not the
  // real model's. The "at <precision>" column only appears when it differs from the FP32 one.
  update(fp32, current, { units = 'gb', precision, replay = false }) {
    const f = (b) => formatBytes(b, units);
    const unit = fp32.sgd.memory.components.weights;
    const params = fp32.sgd.memory.parameters_counted;
    const model = replay
      ? `GPT-2 XL as the chapter counts it (Chapter replay: ${Number.isFinite(params) ? `${formatInt(params)} parameters, ` : ''}the chapter’s round 1.5 billion)`
      : 'GPT-2 XL';
    setText(this.caption, `Optimizer memory for ${model}, in ${unitOf(units).name}. Multiples are of the FP32 weights (W = ${f(unit)}). Step counts come from ${CONVERGENCE.source}.`);
    const showAt = precision !== 'fp32';
    this.precHead.hidden = !showAt;
    replaceChildren(this.precHead, 'Static incl. gradients', h('br'), h('span', { class: 'th-sub', text: `at ${LABELS.precision[precision]}` }));
    // data-label: the column's name, shown before each value when a phone reflows the rows.
    const at = `Static incl. gradients at ${LABELS.precision[precision]}`;
    replaceChildren(this.tbody, optimizerRows(fp32, current).map((r) => h('tr', { 'data-optimizer': r.optimizer },
      h('th', { scope: 'row', text: LABELS.optimizer[r.optimizer] }),
      h('td', { 'data-label': 'Extra vectors', text: r.vectors.length ? `${r.vectors.length} (${r.vectors.join(', ')})` : 'none' }),
      h('td', { 'data-label': 'Weights + optimizer state (FP32)', 'data-bytes': String(r.wo_bytes) }, `${f(r.wo_bytes)} `, h('strong', { text: `(${formatMultiple(r.wo_multiple)})` })),
      h('td', { 'data-label': 'Static incl. gradients (FP32)', 'data-bytes': String(r.static_bytes) }, `${f(r.static_bytes)} `, h('strong', { text: `(${formatMultiple(r.static_multiple)})` })),
      showAt ? h('td', { 'data-label': at, 'data-bytes': String(r.current_static_bytes) }, f(r.current_static_bytes)) : null,
      h('td', { 'data-label': 'Steps to converge', class: r.steps.steps ? null : 'cell--unsourced', text: r.steps.text }))));
    this.fit();
  }
}
