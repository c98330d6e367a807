// The ledger chart's data-table twin: the same numbers as a real <table> (components × optimizers,
// then total, peak and the device budget; under PyTorch defaults: sum, peak, where the peak happens),
// with exact byte counts in data attributes. Hidden components stay listed and say so, because the
// engine's totals still include them.
import { h, replaceChildren, scrollBox, setText } from '../ui/dom.js';
import { formatBytes, formatNumber2, shownHundredths, unitOf, UNIT_SPACE } from '../format/format.js';
import { whyDetails } from '../ui/why-details.js';
import { ledgerTableRows } from '../models/ledger-model.js';

// A column's name as its header shows it; on narrow screens each cell repeats it (data-label).
const columnLabel = (c) => (c.selected ? `${c.label} (selected)` : c.label);

// The rows that add up to a column's total (the total, peak, phase and budget rows do not; nor does
// the transient at the backward peak, which is on top of the steady-state total).
const NOT_TERMS = ['total', 'peak', 'phase', 'budget', 'transient'];

// Each amount rounded from exact bytes can make a column's rows miss its rounded total by a hundredth
// or two. Then the rows are rounded together instead (largest remainder: each is its exact value
// rounded down or up), so that the rows shown add up to the total shown. bytes: the terms of one
// column; → hundredths of the unit per term, or null where plain rounding already adds up.
export function termHundredths(bytes, totalBytes, units = 'gb') {
  const plain = bytes.map((b) => shownHundredths(b, units));
  const total = shownHundredths(totalBytes, units);
  if (plain.reduce((a, x) => a + x, 0) === total) return null;
  const exact = bytes.map((b) => (b / unitOf(units).bytes) * 100);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, x) => a + x, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) { if (left <= 0) break; out[i] += 1; left -= 1; }
  return out;
}

export class LedgerTable {
  constructor(container, { caption }) {
    this.caption = h('caption', { text: caption });
    this.thead = h('thead');
    this.tbody = h('tbody');
    this.table = h('table', { class: 'data-table ledger-table table--reflow' }, this.caption, this.thead, this.tbody);
    // Said only when the rows had to be rounded together (see termHundredths).
    this.why = whyDetails('Why can a row differ from the chart by 0.01?', h('p', { text: 'Each amount is rounded from exact bytes. '
      + 'Where those rounded amounts would not add up to the rounded total, the table rounds a column’s rows together, '
      + 'each up or down, so that they do: a row can then read a hundredth more or less than the chart’s label.' }));
    container.append(scrollBox(this.table, `${caption || 'Table'} (scrolls sideways on narrow screens)`), this.why);
  }

  update(ledger, { units = 'gb', caption } = {}) {
    if (caption) setText(this.caption, caption);
    replaceChildren(this.thead, h('tr', {},
      h('th', { scope: 'col', text: 'Component' }),
      ledger.columns.map((c) => h('th', { scope: 'col', 'data-optimizer': c.optimizer, text: columnLabel(c) }))));
    const all = ledgerTableRows(ledger);
    // Per column, the rows' amounts rounded to add up to its total (null: plain rounding does).
    const terms = all.filter((r) => !NOT_TERMS.includes(r.key));
    const together = ledger.columns.map((c, i) => termHundredths(terms.map((r) => r.values[i]), c.total_bytes, units));
    const shown = (row, i, v) => {
      const k = together[i] ? terms.indexOf(row) : -1;
      if (k < 0 || together[i][k] === shownHundredths(v, units)) return formatBytes(v, units);
      return `${formatNumber2(together[i][k] / 100)}${UNIT_SPACE}${unitOf(units).label}`;
    };
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
          v > 0 ? shown(row, i, v) : '—', note);
      })));
    replaceChildren(this.tbody, rows);
    this.why.hidden = !together.some(Boolean);
  }

  reset() {
    this.thead.replaceChildren();
    this.tbody.replaceChildren();
  }
}
