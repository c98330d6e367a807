// Act 3's crossover as a DOM-free model (charts/crossover-chart.js draws it): compute against
// communication time per step over tokens per device, meeting at the engine's crossover.
import { scaleLog } from 'd3-scale';
import { formatInt, formatSeconds } from '../format/format.js';
import { NARROW_PX, decadeTicks, countTick, secondsTick, leftMargin, placeBeside, placeLabels, dotBox, lineBoxes, axisTitleUnder } from './parallel-chart-common.js';

// ---- 4. the crossover (crossover-chart.js)

// Which crossover the scenario's communication is: fully sharded (ZeRO-3) or data parallel (DDP, ZeRO-1/2).
export const crossoverKind = (p) => (p.zero_stage === 3 ? 'fully_sharded' : 'data_parallel');

// The two lines that meet at the engine's crossover: the compute that hides the communication (the
// backward pass for data parallel's all-reduce; forward + backward for full sharding's gathers) and
// that communication, from formulas.crossover (their quotient is the crossover). Without those
// parts (an older engine): the contract's compute_s_per_token and communication_s.
const CROSS_WORDS = {
  data_parallel: { compute: 'backward pass', comm: 'gradient all-reduce', band: 'the all-reduce cannot hide behind the backward pass' },
  fully_sharded: { compute: 'forward + backward', comm: 'ZeRO-3 gathers and reduce-scatter', band: 'the gathers cannot hide behind compute' },
};
export function crossoverParts(p) {
  const kind = crossoverKind(p);
  const f = p.formulas && p.formulas.crossover;
  const slope = f && (kind === 'data_parallel' ? f.backward_s_per_token : f.compute_s_per_token);
  const seconds = f && f[`${kind}_seconds`];
  if (Number.isFinite(slope) && slope > 0 && Number.isFinite(seconds)) return { kind, k: slope, comm: seconds, words: CROSS_WORDS[kind] };
  return { kind, k: p.compute_s_per_token, comm: p.communication_s, words: { compute: 'compute', comm: 'communication', band: 'communication cannot hide' } };
}

export function crossoverModel(result) {
  const p = result.parallel;
  const { kind, k, comm, words } = crossoverParts(p);
  const tokens = p.tokens_per_device;
  const cross = p.crossover_tokens_per_device[kind];
  const has = comm > 0 && cross > 0;
  const ic = p.interconnect.name;
  const dev = result.device && result.device.name ? `the ${result.device.name}` : 'this device';
  const compute = k * tokens;
  const verdict = !has ? (p.data_parallel === 1 ? 'with one copy of the model there is nothing to synchronise, so no crossover'
    : `communication over ${ic} takes no time, so there is no crossover`)
    : tokens >= cross ? `at least the crossover of ${formatInt(cross)}, so the ${words.comm} can hide behind the ${words.compute}`
      : `fewer than the crossover of ${formatInt(cross)}, so the ${words.comm} cannot all hide behind the ${words.compute}`;
  const summary = `Each device computes ${formatInt(tokens)} tokens per step (the ${words.compute} takes ${formatSeconds(compute)} on ${dev}`
    + `${has ? `, the ${words.comm} ${formatSeconds(comm)} over ${ic}` : ''}): ${verdict}.`;
  const lows = [tokens, has ? cross : tokens].filter((v) => v > 0);
  // A fixed span of 100 to a million tokens (wider only when a value needs it), so that a change of
  // device or interconnect moves the lines and the crossover, not the axis under them.
  const lo = Math.min(100, 10 ** Math.floor(Math.log10(Math.min(...lows) / 3)));
  const hi = Math.max(1e6, 10 ** Math.ceil(Math.log10(Math.max(...lows) * 3)));
  const crossCell = (v) => ({ text: v > 0 ? formatInt(v) : '—', value: v });
  const rows = [
    { key: 'tokens', header: 'Tokens per device per step', cells: [{ text: formatInt(tokens), value: tokens }] },
    { key: 'compute', header: `The ${words.compute}, per step`, cells: [{ text: formatSeconds(compute), value: compute }] },
    { key: 'comm', header: `The ${words.comm}, per step (${ic})`, cells: [{ text: formatSeconds(comm), value: comm }] },
    { key: 'data_parallel', header: 'Crossover, data parallel (tokens per device)', cells: [crossCell(p.crossover_tokens_per_device.data_parallel)] },
    { key: 'fully_sharded', header: 'Crossover, fully sharded (tokens per device)', cells: [crossCell(p.crossover_tokens_per_device.fully_sharded)] },
  ];
  return {
    k, tokens, comm, kind, cross: has ? cross : null, lo, hi, hides: has ? tokens >= cross : true, summary, interconnect: ic, words,
    // Why no communication line is drawn: one copy of the model syncs nothing; else a free interconnect.
    noLine: p.data_parallel === 1 ? ['one copy of the model: nothing to synchronise', 'nothing to synchronise']
      : ['no communication line: it takes no time', 'communication takes no time'],
    tables: [{ caption: `Compute against communication. ${summary}`, columns: ['Quantity', 'Value'], rows }],
  };
}

export function crossoverLayout(model, W) {
  const wide = W >= NARROW_PX;
  const H = 290;
  const M = { top: 18, right: wide ? 16 : 10, bottom: 42, left: 0 };
  const ys = [model.k * model.lo, model.k * model.hi, ...(model.comm > 0 ? [model.comm] : [])];
  const ylo = 10 ** Math.floor(Math.log10(Math.min(...ys)));
  const yhi = 10 ** Math.ceil(Math.log10(Math.max(...ys)));
  const yTicks = decadeTicks(ylo, yhi, 5);
  M.left = leftMargin(yTicks.map(secondsTick));
  const x = scaleLog().domain([model.lo, model.hi]).range([M.left, W - M.right]);
  const y = scaleLog().domain([ylo, yhi]).range([H - M.bottom, M.top]);
  const round = (v) => Math.round(v * 10) / 10;
  const sx = round(x(model.tokens));
  const sy = round(y(model.k * model.tokens));
  const cx = model.cross ? round(x(Math.min(model.hi, Math.max(model.lo, model.cross)))) : null;
  const base = H - M.bottom;
  const x1 = M.left;
  const x2 = W - M.right;
  const along = (f) => ({ x: round(x1 + (x2 - x1) * f), y: round(y(model.k * 10 ** (Math.log10(model.lo) + f * Math.log10(model.hi / model.lo)))) });
  const beside = (px, py, text, gap) => { const b = placeBeside(px, text, x1 + 2, x2, gap); return { x: b.tx, y: py, anchor: b.anchor }; };
  const cy = model.comm > 0 ? round(y(model.comm)) : null;
  const compute = { x1, y1: round(y(model.k * model.lo)), x2, y2: round(y(model.k * model.hi)) };
  const labels = crossoverLabels(model, { x1, x2, W, base, top: M.top, wide, sx, sy, cx, cy, compute, along, beside });
  return {
    W, H, M, wide,
    compute,
    comm: cy === null ? null : { y: cy, x1, x2 },
    // The band left of the crossover: there communication takes longer than compute and cannot hide.
    band: cx === null ? null : { x: M.left, width: Math.max(0, cx - M.left), y: M.top, height: H - M.bottom - M.top },
    cross: cx === null ? null : { x: cx },
    scenario: { x: sx, cy: sy },
    labels,
    xTicks: decadeTicks(model.lo, model.hi, wide ? 7 : 4).map((v) => ({ x: round(x(v)), text: countTick(v) })),
    yTicks: yTicks.map((v) => ({ y: round(y(v)), text: secondsTick(v) })),
    xTitle: axisTitleUnder(wide ? 'Tokens per device per step (log scale)' : 'Tokens per device (log scale)', M.left, W - M.right, W, H - 6),
    yTitle: { text: 'Time per step (log scale)', x: 12, y: (M.top + H - M.bottom) / 2 },
    base: H - M.bottom, top: M.top,
  };
}

// The chart's words, each beside its own mark and across no line (the walk found the communication's
// name crossed by the compute line, and "forward + backward" under the communication line). Each
// line's name also keeps 10 px clear of the other line, so it reads as its own line's.
function crossoverLabels(model, g) {
  const { x1, x2, W, base, top, wide, sx, sy, cx, cy, compute, along, beside } = g;
  const computeLine = lineBoxes(compute.x1, compute.y1, compute.x2, compute.y2);
  const commLine = cy === null ? [] : lineBoxes(x1, cy, x2, cy);
  const crossText = `crossover ${formatInt(model.cross)}`;
  const setupText = `this setup: ${formatInt(model.tokens)} tokens`;
  const items = [
    cx === null ? null : { key: 'cross', cls: 'mark-label', text: crossText, candidates: [beside(cx, top + 12, crossText, 5), beside(cx, top + 28, crossText, 5)] },
    { key: 'scenario', cls: model.hides ? 'mark-label' : 'mark-label mark-label--bad', text: setupText,
      candidates: [setupText, `${formatInt(model.tokens)} tokens`].flatMap((t) => [base - 8, sy - 10, sy + 20, base - 24].map((yy) => ({ ...beside(sx, yy, t, 6), text: t }))) },
    cy === null ? null : { key: 'comm', cls: 'mark-label', text: '', avoid: lineBoxes(compute.x1, compute.y1, compute.x2, compute.y2, 10),
      // The longest wording that fits by the line: its name and time, "communication" and time, the time (the key names it).
      candidates: [...new Set([wide ? model.words.comm : 'communication', 'communication', ''])].flatMap((w) => {
        const t = `${w} ${formatSeconds(model.comm)}`.trim();
        return [[x2 - 4, cy + 16, 'end'], [x2 - 4, cy - 6, 'end'], [x1 + 4, cy - 6, 'start'], [x1 + 4, cy + 16, 'start'],
          ...(cx === null ? [] : [[cx + 8, cy + 16, 'start'], [cx - 8, cy - 6, 'end']])].map(([x, yy, anchor]) => ({ x, y: yy, anchor, text: t }));
      }) },
    // Beside the compute line where it is far from the communication line: below-right of a point
    // (the line rises to the right, so that space is open), or above-left.
    { key: 'compute', cls: 'mark-label', text: model.words.compute, avoid: cy === null ? [] : lineBoxes(x1, cy, x2, cy, 10),
      candidates: [0.7, 0.55, 0.85, 0.4, 0.25, 0.1].flatMap((f) => [{ x: along(f).x + 4, y: along(f).y + 18, anchor: 'start' }, { x: along(f).x - 6, y: along(f).y - 6, anchor: 'end' }]) },
    model.comm > 0 ? null : { key: 'note', cls: 'mark-label mark-label--soft', text: model.noLine[wide ? 0 : 1], candidates: [{ x: x1 + 6, y: top + 14, anchor: 'start' }, { x: x2 - 6, y: base - 8, anchor: 'end' }] },
  ].filter(Boolean);
  return placeLabels(items, { left: x1, right: W, top: 0, bottom: base }, [dotBox(sx, sy, 7), ...computeLine, ...commLine]);
}
