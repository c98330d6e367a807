// The ledger chart's data-table twin: the same numbers as a real <table> (components × optimizers,
// then total, peak and the device budget), with exact byte counts in data attributes. Hidden
// components stay listed and say so, because the engine's totals still include them.
import { h, replaceChildren, scrollBox } from '../ui/dom.js';
import { formatBytes, formatSum, shownHundredths, formatNumber2, unitOf } from '../format.js';
import { ledgerTableRows } from '../ledger-model.js';

export class LedgerTable {
  constructor(container, { caption }) {
    this.caption = h('caption', { text: caption });
    this.thead = h('thead');
    this.tbody = h('tbody');
    this.table = h('table', { class: 'data-table ledger-table table--reflow' }, this.caption, this.thead, this.tbody);
    container.append(scrollBox(this.table, `${caption || 'Table'} (scrolls sideways on narrow screens)`));
  }

  update(ledger, { units = 'gb', caption } = {}) {
    if (caption) this.caption.textContent = caption;
    replaceChildren(this.thead, h('tr', {},
      h('th', { scope: 'col', text: 'Component' }),
      ledger.columns.map((c) => h('th', { scope: 'col', 'data-optimizer': c.optimizer, text: c.selected ? `${c.label} (selected)` : c.label }))));
    const all = ledgerTableRows(ledger);
    // Every amount is rounded once from exact bytes, so a column's shown rows can miss its shown total
    // by 0.01; the total then says what its rows add up to, so no sum on screen silently fails.
    const parts = all.filter((r) => r.key !== 'total' && r.key !== 'peak' && r.key !== 'budget' && r.key !== 'transient');
    const rowsNote = (i, key) => {
      const col = ledger.columns[i];
      const terms = key === 'total' ? parts.map((r) => r.values[i]) : [col.total_bytes, col.bytes.transient || 0];
      const sum = formatSum(terms, units, key === 'total' ? col.total_bytes : col.peak_bytes);
      if (sum.exact) return null;
      const shown = `${formatNumber2(terms.reduce((a, b) => a + shownHundredths(b, units), 0) / 100)} ${unitOf(units).label}`;
      return h('span', { class: 'tag', text: ` (${key === 'total' ? 'the rows above' : 'total + transient'} add to ${shown} as rounded)` });
    };
    const rows = all.map((row) => h('tr', { 'data-row': row.key, class: row.key === 'total' || row.key === 'peak' || row.key === 'budget' ? 'row--sum' : null },
      h('th', { scope: 'row' }, row.label, row.hidden ? h('span', { class: 'tag', text: ' (hidden in chart)' }) : null),
      row.values.map((v, i) => {
        const col = ledger.columns[i];
        // The peak cell carries the column's state in words: over budget, or fits but cannot train.
        const peak = row.key === 'peak';
        const note = peak && col.state === 'oom' ? ' (over budget)' : peak && col.state === 'invalid' ? ' (fits, cannot train)' : '';
        return h('td', { 'data-optimizer': col.optimizer, 'data-label': col.selected ? `${col.label} (selected)` : col.label, 'data-bytes': String(v), 'data-state': peak ? col.state : null, class: note ? 'cell--over' : null },
          v > 0 ? formatBytes(v, units) : '—', note, row.key === 'total' || row.key === 'peak' ? rowsNote(i, row.key) : null);
      })));
    replaceChildren(this.tbody, rows);
  }

  reset() {
    this.thead.replaceChildren();
    this.tbody.replaceChildren();
  }
}
