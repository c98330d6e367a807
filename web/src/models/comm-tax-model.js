// Act 3's communication tax as a DOM-free model (charts/comm-tax-chart.js draws it): the engine's
// speedups against the device count beside the chapter's curve N / (1 + (N − 1) r), with the engine's r.
import { scaleLog } from 'd3-scale';
import { formatInt, formatPercent, formatRatio } from '../format/format.js';
import { NARROW_PX, devicesWords, deviceTicks, decadeTicks, leftMargin, placeLabels, dotBox, axisTitleUnder, formatR } from './parallel-chart-common.js';

// ---- 3. the communication tax (comm-tax-chart.js)

export const R_NOISE = 1e-9;

// The chapter's speedup N / (1 + (N − 1) r) for the engine's r.
export const chapterSpeedup = (n, r) => n / (1 + (n - 1) * r);

// points: the act's engine results for N = 1, 2, 4, … 1,024 ([{ devices, speedup, fits? }]).
export function commTaxModel(result, points = []) {
  const p = result.parallel;
  // An r this small is the engine's rounding (a free interconnect gives ~3e-17), not a ceiling.
  const r = Math.abs(p.communication_ratio) < R_NOISE ? 0 : p.communication_ratio;
  const ceiling = r > 0 ? 1 / r : null;
  const engine = points.filter((q) => Number.isFinite(q.devices) && q.devices >= 1 && Number.isFinite(q.speedup) && q.speedup > 0)
    .map((q) => ({ devices: q.devices, speedup: q.speedup, fits: q.fits !== false }));
  // The axis runs to 1,024 devices, or to the next power of two that holds every point drawn.
  const maxDevices = 2 ** Math.ceil(Math.log2(Math.max(1024, p.devices, ...engine.map((q) => q.devices))));
  const curve = Array.from({ length: 8 * Math.log2(maxDevices) + 1 }, (_, k) => { const n = 2 ** (k / 8); return { devices: n, speedup: chapterSpeedup(n, r) }; });
  const fits = result.memory ? result.memory.fits : true;
  const scenario = { devices: p.devices, speedup: p.speedup, efficiency: p.scaling_efficiency, fits };
  const at1024 = chapterSpeedup(1024, r);
  const ceilingWords = ceiling ? `levels off toward 1/r = ${formatRatio(ceiling)}: 1,024 devices would give ${formatRatio(at1024)}, not 1,024×`
    : 'stays on the ideal line: communication costs nothing here';
  const pace = p.speedup >= 1 ? `${formatRatio(p.speedup)} faster than one device` : `slower than one device (${formatRatio(p.speedup)} its speed)`;
  const here = `${devicesWords(p)}: ${pace}, ${formatPercent(p.scaling_efficiency)} efficiency${fits ? '' : ', but it does not fit in memory'}`;
  const summary = `With this setup’s communication ratio r = ${formatR(r)}, the chapter’s curve N / (1 + (N − 1) r) ${ceilingWords}. This setup, ${here}.`;
  const rows = engine.map((q) => ({
    key: `n${q.devices}`, header: formatInt(q.devices),
    cells: [{ text: formatRatio(q.speedup), value: q.speedup }, { text: formatRatio(chapterSpeedup(q.devices, r)), value: chapterSpeedup(q.devices, r) },
      { text: q.fits ? 'yes' : '✕ no', cls: q.fits ? null : 'cell--over' }],
  }));
  return {
    r, ceiling, curve, engine, scenario, summary, max_devices: maxDevices,
    tables: [{ caption: `Speedup against one device. ${summary}`, columns: ['Devices', 'Engine', 'Chapter’s curve', 'Fits in memory'], rows }],
  };
}

export function commTaxLayout(model, W) {
  const wide = W >= NARROW_PX;
  const H = 300;
  const M = { top: 16, right: wide ? 16 : 10, bottom: 42, left: 0 };
  const lows = [1, ...model.engine.map((q) => q.speedup), model.scenario.speedup].filter((v) => v > 0);
  const lo = Math.min(...lows) / 1.3;
  const yTickText = (v) => `${v >= 1 ? formatInt(v) : Number(v.toPrecision(2))}×`;
  const top = model.max_devices * 1.15;
  const yTicks = decadeTicks(lo, top, 5);
  M.left = leftMargin(yTicks.map(yTickText));
  const x = scaleLog().base(2).domain([1, model.max_devices]).range([M.left, W - M.right]);
  const y = scaleLog().domain([lo, top]).range([H - M.bottom, M.top]);
  const round = (v) => Math.round(v * 10) / 10;
  const path = (pts) => pts.map((q, i) => `${i ? 'L' : 'M'}${round(x(q.devices))},${round(y(Math.max(lo, q.speedup)))}`).join('');
  const s = model.scenario;
  const sx = round(x(Math.max(1, s.devices)));
  const sy = round(y(Math.max(lo, s.speedup)));
  const words = `${s.fits ? 'this setup' : wide ? '✕ this setup (does not fit)' : '✕ does not fit'}: ${formatRatio(s.speedup)}`;
  const ceil = model.ceiling && model.ceiling < top && model.ceiling > lo ? round(y(model.ceiling)) : null;
  const x1 = M.left;
  const x2 = W - M.right;
  const points = model.engine.map((q) => ({ ...q, cx: round(x(q.devices)), cy: round(y(Math.max(lo, q.speedup))) }));
  const ceilingText = model.ceiling ? `ceiling 1/r = ${formatRatio(model.ceiling)}` : '';
  const items = [
    { key: 'scenario', cls: s.fits ? 'mark-label' : 'mark-label mark-label--bad', text: words,
      candidates: [
        ...[[9, -9, 'start'], [9, 19, 'start'], [-9, -9, 'end'], [-9, 19, 'end'], [0, -14, 'middle'], [0, 24, 'middle']].map(([dx, dy, anchor]) => ({ x: sx + dx, y: sy + dy, anchor })),
        // A narrow plot: at its left or right edge, above or below the point.
        ...[-14, 24].flatMap((dy) => [{ x: x1 + 2, y: sy + dy, anchor: 'start' }, { x: x2, y: sy + dy, anchor: 'end' }]),
      ] },
    ceil === null ? null : { key: 'ceiling', cls: 'mark-label', text: ceilingText, optional: true,
      candidates: [{ x: x1 + 4, y: ceil - 5, anchor: 'start' }, { x: x1 + 4, y: ceil + 15, anchor: 'start' }, { x: x2 - 4, y: ceil + 15, anchor: 'end' }, { x: x2 - 4, y: ceil - 5, anchor: 'end' }] },
    // Above-left of the ideal line (the curve runs below it).
    { key: 'ideal', cls: 'mark-label mark-label--soft', text: 'ideal: N×', optional: true,
      candidates: [256, 128, 512, 64, 32].map((n) => ({ x: round(x(n)) - 6, y: round(y(n)) - 6, anchor: 'end' })) },
  ].filter(Boolean);
  // Inside the plot, clear of the axes' tick words.
  const labels = placeLabels(items, { left: x1, right: W, top: 0, bottom: H - M.bottom }, [dotBox(sx, sy, 8), ...points.map((q) => dotBox(q.cx, q.cy, 5))]);
  return {
    W, H, M, wide,
    ideal: path([{ devices: 1, speedup: 1 }, { devices: model.max_devices, speedup: model.max_devices }]),
    curve: path(model.curve),
    points,
    scenario: { ...s, cx: sx, cy: sy },
    ceiling: ceil === null ? null : { y: ceil },
    labels,
    // A tick word ("32,768") takes ~45 px, and the last one ends at the axis's end: ticks 64 px apart at least.
    xTicks: deviceTicks(wide, model.max_devices, Math.ceil(64 / ((x2 - x1) / Math.log2(model.max_devices)))).map((n) => ({ x: round(x(n)), text: formatInt(n) })),
    yTicks: yTicks.map((v) => ({ y: round(y(v)), text: yTickText(v) })),
    xTitle: axisTitleUnder('Devices N (log scale)', M.left, W - M.right, W, H - 6),
    yTitle: { text: 'Speedup (log scale)', x: 12, y: (M.top + H - M.bottom) / 2 },
    base: H - M.bottom, x1: M.left, x2: W - M.right,
  };
}
