// The workbench's results: what the engine predicts for one training step of the scenario the shell
// (workbench.js) gives. show(scenario) evaluates it and its textbook twin at once and paints the verdict,
// peak, timeline and estimate in the same frame; the solver (slower for big models) and the table twin
// follow after the paint. An engine error keeps the last results, marked as not current. The numbers
// and words come from workbench-view.js (DOM-free); destroy() removes it all.
import { h, replaceChildren, setText, setAttr, setHidden, scrollBox } from '../ui/dom.js';
import { Banner } from '../ui/banner.js';
import { whyDetails } from '../ui/why-details.js';
import { createAfterPaint } from '../ui/after-paint.js';
import { StepTimelineChart } from '../charts/step-timeline-chart.js';
import { DataTable } from '../charts/data-table.js';
import { formatBytes, formatInt } from '../format/format.js';
import {
  isPytorch, textbookTwin, pytorchTwin, timelineView, timelineRows, peakView, fitView, deviceSizeWords,
  gapView, timingView, solveView, solveFor, largestText,
} from '../models/workbench-view.js';
import './workbench.css';

const figure = (key, label, ...extra) => {
  const value = h('dd', { class: 'wb-figure__value' });
  const note = h('dd', { class: 'wb-figure__note' });
  const row = h('div', { class: 'wb-figure', 'data-key': key }, h('dt', { text: label }), value, note, ...extra);
  return { row, value, note };
};

function buildDom(root) {
  const d = {};
  d.error = h('p', { class: 'wb-error', role: 'alert', hidden: true });
  d.banner = new Banner();
  d.stale = h('p', { class: 'wb-stale', hidden: true, text: 'Not current: these results are for the last settings that worked.' });
  d.peak = figure('peak', 'Peak memory');
  d.usable = figure('usable', 'Usable on the GPU');
  d.sizeWhy = h('p');
  d.usable.row.append(h('dd', {}, whyDetails('GB or GiB?', d.sizeWhy)));
  d.textbook = figure('textbook', 'Textbook sum');
  d.gapBody = h('div');
  d.gapSummary = h('p');
  d.textbook.row.append(h('dd', {}, whyDetails('Why different?', d.gapSummary, d.gapBody)));
  d.largest = figure('largest', 'Largest micro-batch that fits');
  d.pathLead = h('p', { class: 'wb-path__lead', hidden: true });
  d.pathList = h('ol', { class: 'wb-path' });
  d.step = figure('step', 'Step time (estimate)');
  d.tokens = figure('tokens', 'Tokens/s (estimate)');
  d.mfu = figure('mfu', 'MFU (estimate)');
  d.timingCaveat = h('p', { class: 'wb-timing-caveat', hidden: true });
  d.assumptions = h('ul');
  d.notes = h('ul', { class: 'wb-notes', hidden: true });
  d.figures = h('dl', { class: 'wb-figures' }, d.peak.row, d.usable.row, d.textbook.row, d.largest.row);
  d.timing = h('dl', { class: 'wb-figures wb-figures--timing' }, d.step.row, d.tokens.row, d.mfu.row);
  d.chartBox = h('div', { class: 'wb-chart' });
  d.chartNote = h('p', { class: 'wb-chart__note', hidden: true });
  d.tableBox = h('div');
  d.tableDetails = whyDetails('Timeline as a table', d.tableBox);
  d.current = h('div', { class: 'wb-current' }, d.banner.el, d.figures, d.pathLead, d.pathList,
    h('h3', { text: 'Memory through one step' }), d.chartBox, d.chartNote, d.tableDetails,
    h('h3', { text: 'Speed' }), d.timingCaveat, d.timing, whyDetails('What the estimate assumes', d.assumptions), d.notes);
  replaceChildren(root, h('div', { class: 'wb-results' }, d.error, d.stale, d.current));
  d.chart = new StepTimelineChart(d.chartBox, { label: 'Live memory through one training step, by category' });
  d.table = new DataTable(d.tableBox, { caption: 'Live memory at each phase of the step', className: 'wb-table' });
  return d;
}

function paintFigures(d, r, twin, units) {
  const f = (b) => formatBytes(b, units);
  const fit = fitView(r, units);
  const peak = peakView(r, units);
  d.banner.update({ state: fit.state, title: fit.headline, text: fit.detail || '' });
  setText(d.peak.value, peak.peak_text);
  setAttr(d.peak.value, 'data-value', peak.peak_bytes);
  setText(d.peak.note, peak.phase_words);
  setText(d.usable.value, fit.usable_text);
  setAttr(d.usable.value, 'data-value', fit.usable_bytes);
  setText(d.usable.note, '');
  setText(d.sizeWhy, deviceSizeWords(r));
  const pt = isPytorch(r.scenario) ? r : twin;
  const tb = isPytorch(r.scenario) ? twin : r;
  const gap = gapView(pt, tb, units);
  setHidden(d.textbook.row, !gap);
  if (gap) {
    const label = isPytorch(r.scenario) ? 'Textbook sum' : 'PyTorch peak';
    setText(d.textbook.row.querySelector('dt'), label);
    const shown = isPytorch(r.scenario) ? gap.textbook_bytes : gap.pytorch_bytes;
    setText(d.textbook.value, f(shown));
    setAttr(d.textbook.value, 'data-value', shown);
    setText(d.gapSummary, gap.summary);
    paintGapTable(d, gap, f);
  }
}

function paintGapTable(d, gap, f) {
  const rows = gap.rows.map((r) => h('tr', {}, h('th', { scope: 'row', text: r.label }),
    h('td', { text: f(r.textbook), 'data-value': r.textbook }), h('td', { text: f(r.pytorch), 'data-value': r.pytorch })));
  const total = h('tr', { class: 'is-total' }, h('th', { scope: 'row', text: 'Peak' }),
    h('td', { text: f(gap.textbook_bytes), 'data-value': gap.textbook_bytes }), h('td', { text: f(gap.pytorch_bytes), 'data-value': gap.pytorch_bytes }));
  const mixed = gap.textbook_precision === 'mixed' ? ' The textbook counts autocast as mixed precision: 16-bit weights beside an FP32 master copy.' : '';
  const ckpt = gap.textbook_checkpointing ? ' PyTorch’s step is modelled without activation checkpointing, so its column keeps every activation.' : '';
  replaceChildren(d.gapBody,
    h('p', { text: `The textbook adds every component as if all were live at once; PyTorch frees and allocates through the step, so its peak is what is live at one moment, with temporaries. Rows: the textbook’s components, and what PyTorch holds at its peak.${mixed}${ckpt}${gap.sums_exact ? '' : ' Each amount is rounded from bytes, so a column may not add up to the last digit.'}` }),
    scrollBox(h('table', { class: 'data-table wb-gap' }, h('caption', { text: 'Textbook sum and PyTorch peak, term by term' }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Component' }), h('th', { scope: 'col', text: 'Textbook' }), h('th', { scope: 'col', text: 'PyTorch at its peak' }))),
      h('tbody', {}, rows, total)), 'Textbook and PyTorch, term by term (scrolls sideways on narrow screens)'));
}

function paintTiming(d, r) {
  const t = timingView(r);
  setText(d.timingCaveat, t.caveat || '');
  setHidden(d.timingCaveat, !t.caveat);
  d.timing.classList.toggle('is-hypothetical', t.state !== 'ok');
  setText(d.step.row.querySelector('dt'), t.labels.step);
  setText(d.tokens.row.querySelector('dt'), t.labels.tokens);
  setText(d.mfu.row.querySelector('dt'), t.labels.mfu);
  setText(d.step.value, t.step_text);
  setAttr(d.step.value, 'data-value', t.step_seconds);
  setText(d.tokens.value, t.tokens_text);
  setAttr(d.tokens.value, 'data-value', t.tokens_per_second);
  setText(d.mfu.value, t.mfu_text);
  setAttr(d.mfu.value, 'data-value', t.mfu);
  replaceChildren(d.assumptions, t.assumptions.map((a) => h('li', { text: a })));
  const notes = [...(r.model.notes || []), ...(r.warnings || []).map((w) => (typeof w === 'string' ? w : w.message || ''))].filter(Boolean);
  setHidden(d.notes, !notes.length);
  replaceChildren(d.notes, notes.map((n) => h('li', { text: n })));
}

function paintChart(d, r, units) {
  const tl = timelineView(r);
  setHidden(d.chartBox, !tl);
  setHidden(d.tableDetails, !tl);
  setHidden(d.chartNote, Boolean(tl));
  if (!tl) {
    setText(d.chartNote, 'The textbook layout counts every component as live at once: it has no phases. Count memory as PyTorch does to see the step.');
    return null;
  }
  const peak = tl.phases[tl.peakIndex];
  d.chart.update(tl, { usableBytes: r.memory.usable_device_bytes, units,
    summary: `Peak ${formatBytes(tl.peak_bytes, units)} at “${peak.label}”, phase ${formatInt(tl.peakIndex + 1)} of ${formatInt(tl.phases.length)}.` });
  return tl;
}

function paintTable(d, tl, units) {
  if (!tl) return;
  d.table.update({ columns: ['Phase', ...tl.categories.map((c) => c.label), 'Total'], rows: timelineRows(tl, units) });
}

// higherPeak: the scenario's PyTorch peak is above its textbook twin's, so a textbook answer is optimistic.
function paintSolve(d, view, units, higherPeak = false) {
  d.largest.row.removeAttribute('aria-busy');
  if (view.error) {
    setText(d.largest.value, '—');
    setText(d.largest.note, `The solver has no answer: ${view.error}`);
    replaceChildren(d.pathList);
    setHidden(d.pathLead, true);
    return;
  }
  setText(d.largest.value, largestText(view.largest_batch));
  setAttr(d.largest.value, 'data-value', view.largest_batch);
  const layout = view.layout !== 'textbook' ? '' : higherPeak
    ? 'Counted with the textbook layout; PyTorch’s peak is higher, so fewer may fit.' : 'Counted with the textbook layout.';
  const invalid = view.largest_valid === false ? ' It cannot train: updates stall.' : '';
  setText(d.largest.note, `${layout}${invalid}`.trim());
  const layoutWords = view.layout === 'textbook' ? ' (textbook layout)' : '';
  setHidden(d.pathLead, view.fits_now);
  if (view.fits_now) {
    replaceChildren(d.pathList);
    return;
  }
  setText(d.pathLead, view.reaches_fit ? `Cheapest change that fits${layoutWords}:` : `No change the solver tries fits on this GPU${layoutWords}. The closest:`);
  replaceChildren(d.pathList, view.moves.map((m) => h('li', {},
    `${m.words}: peak ${formatBytes(m.peak_bytes, units)}, ${m.outcome}`)));
}

export function mountWorkbenchResults(root, { engine, store }) {
  const d = buildDom(root);
  const later = createAfterPaint(root);
  const solveCache = new Map();
  const ask = (s) => {
    const key = JSON.stringify(s);
    if (!solveCache.has(key)) solveCache.set(key, engine.call('solve', s));
    return solveCache.get(key);
  };
  const unitsNow = () => (store && store.getState ? store.getState().config.units : null) || 'gb';
  let lastGood = null;
  let units = unitsNow();

  function paint(scenario, r, twin) {
    paintFigures(d, r, twin, units);
    paintTiming(d, r);
    const tl = paintChart(d, r, units);
    setText(d.largest.value, 'working…');
    setText(d.largest.note, '');
    d.largest.row.setAttribute('aria-busy', 'true');
    later(() => {
      paintTable(d, tl, units);
      const { solved, layout } = solveFor(scenario, ask);
      const higher = isPytorch(scenario) && twin && !twin.error && r.memory.peak_bytes > twin.memory.peak_bytes;
      paintSolve(d, solveView(solved, layout, r.memory.usable_device_bytes), units, higher);
    });
  }

  function show(scenario) {
    const r = engine.evaluate(scenario);
    if (!r || r.error) {
      const e = r ? r.error : { field: '', message: 'the engine gave no answer' };
      setText(d.error, `Cannot compute these settings: ${e.field ? `${e.field}: ` : ''}${e.message}`);
      setHidden(d.error, false);
      setHidden(d.stale, !lastGood);
      setHidden(d.current, !lastGood);
      d.current.classList.add('is-stale');
      return;
    }
    setHidden(d.error, true);
    setHidden(d.stale, true);
    setHidden(d.current, false);
    d.current.classList.remove('is-stale');
    const twin = engine.evaluate(isPytorch(scenario) ? textbookTwin(scenario) : pytorchTwin(scenario));
    lastGood = { scenario, r, twin };
    paint(scenario, r, twin);
  }

  // The shell hands each scenario to show(); a `workbench-scenario` event on the root (detail: the
  // scenario) does the same, so tests can drive the results without the shell's controls.
  const onScenario = (e) => show(e.detail);
  root.addEventListener('workbench-scenario', onScenario);
  const unsubscribe = store && store.subscribe ? store.subscribe(() => {
    if (unitsNow() === units) return;
    units = unitsNow();
    if (lastGood) paint(lastGood.scenario, lastGood.r, lastGood.twin);
  }) : null;

  return {
    show,
    destroy() {
      if (unsubscribe) unsubscribe();
      root.removeEventListener('workbench-scenario', onScenario);
      d.chart.destroy();
      root.replaceChildren();
    },
  };
}
