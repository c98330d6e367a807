// A chart's data-table twin for the "Measure it" charts: a real <table> with a caption, column headers
// and a row header per row; exact values ride along in data attributes (data-value) so tests and
// screen-reader users get the same numbers the chart draws. The caller supplies rows as plain data.
import { h, replaceChildren, scrollBox, setText } from '../ui/dom.js';

export class DataTable {
  constructor(container, { caption, className = '' }) {
    this.caption = h('caption', { text: caption });
    this.thead = h('thead');
    this.tbody = h('tbody');
    this.table = h('table', { class: `data-table ${className}`.trim() }, this.caption, this.thead, this.tbody);
    container.append(scrollBox(this.table, `${caption || 'Table'} (scrolls sideways on narrow screens)`));
  }

  // columns: [label, ...] (the first heads the row-header column); rows: [{ key, header, cells:
  // [{ text, value?, cls? }], cls? }].
  update({ caption, columns, rows }) {
    if (caption) setText(this.caption, caption);
    replaceChildren(this.thead, h('tr', {}, columns.map((c) => h('th', { scope: 'col', text: c }))));
    replaceChildren(this.tbody, rows.map((r) => h('tr', { 'data-row': r.key, class: r.cls || null },
      h('th', { scope: 'row', text: r.header }),
      // data-label: the column's name, which a table--reflow card shows before each value (styles.css).
      r.cells.map((c, i) => h('td', { class: c.cls || null, 'data-label': columns[i + 1] ?? null,
        'data-value': c.value === undefined || c.value === null ? null : String(c.value), text: c.text })))));
  }

  reset() {
    this.thead.replaceChildren();
    this.tbody.replaceChildren();
  }
}
