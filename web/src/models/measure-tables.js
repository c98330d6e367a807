// Pure rows for the "Measure it" charts' table twins (no DOM): the same numbers each chart draws, as
// { columns, rows } for charts/data-table.js. Byte cells carry exact integers (data-value) and show
// them with thousands separators, so "match" can be checked to the byte.
import { formatInt, formatSmallBytes, formatPercent } from '../format/format.js';
import { phaseWords } from './measure-model.js';

const bytesCell = (b) => (b === null || b === undefined ? { text: '—' } : { text: `${formatInt(b)}\u00a0B`, value: b });

export function bytesTable(pairs) {
  const rows = pairs.rows.map((r) => ({
    key: r.name, header: r.label, cls: r.match === false ? 'row--differs' : null,
    cells: [
      bytesCell(r.predicted_at_peak), bytesCell(r.measured_at_peak),
      bytesCell(r.predicted_max), bytesCell(r.measured_max),
      { text: r.match === null ? 'not measured' : r.match ? '✓ match' : '✕ differs', cls: r.match === false ? 'cell--over' : null },
    ],
  }));
  rows.push({
    key: 'peak', header: 'Peak (all categories)', cls: 'row--sum',
    cells: [bytesCell(pairs.predicted_peak), bytesCell(pairs.measured_peak), { text: '' }, { text: '' },
      { text: pairs.match === null ? 'not measured' : pairs.match ? '✓ match' : '✕ differs' }],
  });
  return {
    columns: ['Category', 'Predicted at peak', 'Measured at peak', 'Predicted maximum', 'Measured maximum', 'Match'],
    rows,
  };
}

// One row per phase, named in words (layers counted from 1), in the order the step runs them.
export function timelineTable(tl, units = 'gb') {
  return {
    columns: ['Phase of the step, in order', 'Highest inside phase, predicted', 'Highest inside phase, measured', 'Live at end of phase', 'of which activations'],
    rows: tl.phases.map((p) => ({
      key: String(p.i), header: `${phaseWords(p.name)}${p.i === tl.peakIndex ? ' (the peak)' : ''}`, cls: p.i === tl.peakIndex ? 'row--sum' : null,
      cells: [
        { text: formatSmallBytes(p.predicted_peak, units), value: p.predicted_peak },
        p.measured_peak === null ? { text: '—' } : { text: formatSmallBytes(p.measured_peak, units), value: p.measured_peak },
        { text: formatSmallBytes(p.live_total, units), value: p.live_total },
        { text: formatSmallBytes(p.live.activations || 0, units), value: p.live.activations || 0 },
      ],
    })),
  };
}

// series: [{ key, label, values }] over steps; fmt formats one value.
export function seriesTable(series, fmt = (v) => v.toFixed(3)) {
  const n = Math.max(0, ...series.map((s) => s.values.length));
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    rows.push({
      key: String(i + 1), header: String(i + 1),
      cells: series.map((s) => {
        if (i >= s.values.length) return { text: '—' };
        const v = s.values[i];
        return Number.isFinite(v) ? { text: fmt(v), value: v } : { text: 'not a number (diverged)' };
      }),
    });
  }
  return { columns: ['Step', ...series.map((s) => s.label)], rows };
}

export const fractionText = (f) => formatPercent(f, 1);
