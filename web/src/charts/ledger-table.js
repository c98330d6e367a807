// The ledger chart's data-table twin: the same numbers as a real <table> (components × optimizers,
// then total, peak and the device budget; under PyTorch defaults: sum, peak, where the peak happens),
// with exact byte counts in data attributes. Hidden components stay listed and say so, because the
// engine's totals still include them.
import { h, replaceChildren, scrollBox, setText } from '../ui/dom.js';
import { formatBytes, formatSum, shownSumText } from '../format.js';
import { ledgerTableRows } from '../ledger-model.js';

// A column's name as its header shows it; on narrow screens each cell repeats it (data-label).
const columnLabel = (c) => (c.selected ? `${c.label} (selected)` : c.label);

export class LedgerTable {
  constructor(container, { caption }) {
    this.caption = h('caption', { text: caption });
    this.thead = h('thead');
    this.tbody = h('tbody');
    this.table = h('table', { class: 'data-table ledger-table table--reflow' }, this.caption, this.thead, this.tbody);
    container.append(scrollBox(this.table, `${caption || 'Table'} (scrolls sideways on narrow screens)`));
  }

  update(ledger, { units = 'gb', caption } = {}) {
    if (caption) setText(this.caption, caption);
    replaceChildren(this.thead, h('tr', {},
      h('th', { scope: 'col', text: 'Component' }),
      ledger.columns.map((c) => h('th', { scope: 'col', 'data-optimizer': c.optimizer, text: columnLabel(c) }))));
    const all = ledgerTableRows(ledger);
    const rows = all.map((row) => h('tr', { 'data-row': row.key, class: ['total', 'peak', 'phase', 'budget'].includes(row.key) ? 'row--sum' : null },
      h('th', { scope: 'row' }, row.label, row.hidden ? h('span', { class: 'tag', text: ' (hidden in chart)' }) : null),
      row.values.map((v, i) => {
        const col = ledger.columns[i];
        // PyTorch defaults: where the peak happens, in words.
        if (typeof v === 'string') return h('td', { 'data-optimizer': col.optimizer, 'data-label': columnLabel(col), 'data-phase': col.peak_phase, text: v });
        // The peak cell carries the column's state in words: over budget, or fits but cannot train.
        const peak = row.key === 'peak';
        const note = peak && col.state === 'oom' ? ' (over budget)' : peak && col.state === 'invalid' ? ' (fits, cannot train)' : '';
        return h('td', { 'data-optimizer': col.optimizer, 'data-label': columnLabel(col), 'data-bytes': String(v), 'data-state': peak ? col.state : null, class: note ? 'cell--over' : null },
          v > 0 ? formatBytes(v, units) : '—', note);
      })));
    // Every amount is rounded once from exact bytes, so a column's rounded rows can miss its rounded
    // total by 0.01. Then a row under the total says what the rows add up to as shown, so no sum in
    // the table silently fails.
    const parts = all.filter((r) => !['total', 'peak', 'phase', 'budget', 'transient'].includes(r.key));
    if (ledger.columns.some((c, i) => !formatSum(parts.map((r) => r.values[i]), units, c.total_bytes).exact)) {
      const at = rows.findIndex((tr) => tr.dataset.row === 'total');
      // The transient row sits among the rows above but is not part of the steady-state total; the
      // sentence names it so that it counts exactly the rows it says it counts.
      const transient = all.find((r) => r.key === 'transient');
      const sumLabel = transient ? `The rows above except “${transient.label}”, as shown, add to` : 'The rows above as shown add to';
      rows.splice(at, 0, h('tr', { 'data-row': 'rounded-sum', class: 'row--note' },
        h('th', { scope: 'row', text: sumLabel }),
        ledger.columns.map((c, i) => h('td', { 'data-optimizer': c.optimizer, 'data-label': columnLabel(c), text: shownSumText(parts.map((r) => r.values[i]), units) }))));
    }
    replaceChildren(this.tbody, rows);
  }

  reset() {
    this.thead.replaceChildren();
    this.tbody.replaceChildren();
  }
}
