// What Act 3's four chart models share (DOM-free): the charts' narrow width, units, words for the
// strategies, rounding terms so they add up, log-scale ticks and label placement that avoids overlaps.
// The four models: parallel-memory-model.js, parallel-timeline-model.js, comm-tax-model.js, crossover-model.js.
import { formatInt, formatNumber2, UNIT_SPACE } from '../format/format.js';

export const NARROW_PX = 520; // below this a chart uses its narrow layout (as fit-width.js)
export const CHAR_PX = 6.4; // average glyph width of the 11–12 px chart fonts

// `format` as the charts take it: 'gb' | 'gib', or { units }.
export const unitsOf = (format) => (typeof format === 'string' ? format : (format && format.units) || 'gb');

// ---- shared: words for strategies, rounding terms together, ticks

export const STAGE_NAMES = ['DDP', 'ZeRO-1', 'ZeRO-2', 'ZeRO-3'];
export const STAGE_WORDS = ['plain data parallel (DDP)', 'ZeRO-1 (optimizer state sharded)', 'ZeRO-2 (optimizer state and gradients sharded)',
  'ZeRO-3 (everything sharded, as FSDP)'];
export const stageName = (z) => STAGE_NAMES[z] ?? `stage ${z}`;

// "8 devices", "8 devices (data 4 × tensor 2)": the device count and how it splits.
export function devicesWords(p) {
  const parts = [['data', p.data_parallel], ['tensor', p.tensor_parallel], ['pipeline', p.pipeline_parallel]].filter(([, n]) => n > 1);
  const count = `${formatInt(p.devices)} ${p.devices === 1 ? 'device' : 'devices'}`;
  return parts.length > 1 ? `${count} (${parts.map(([w, n]) => `${w} ${formatInt(n)}`).join(' × ')})` : count;
}

// Values rounded to hundredths so that the shown terms add up to the shown total (largest remainder):
// each term is its exact value rounded down or up. Only when the exact terms do add up to the total.
export function roundTogether(values, total) {
  const exact = values.map((v) => v * 100);
  const target = Math.round(total * 100);
  const out = exact.map(Math.floor);
  let left = target - out.reduce((a, x) => a + x, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) { if (left <= 0) break; out[i] += 1; left -= 1; }
  return out.map((x) => x / 100);
}

// Seconds in one unit for a sentence whose terms add up: ms when the total is under 0.1 s (as
// formatSeconds), or when a term is and the total is under a minute (so no term reads "0.00 s").
export function secondsUnit(totalSeconds, smallestSeconds = totalSeconds) {
  const ms = Math.abs(totalSeconds) < 0.1 || (Math.abs(smallestSeconds) < 0.1 && Math.abs(totalSeconds) < 60);
  return ms ? { scale: 1000, label: 'ms' } : { scale: 1, label: 's' };
}

// "compute 0.83 s + exposed communication 0.10 s = 0.93 s": terms [{ label, seconds }] that add up to
// totalSeconds exactly (relative 1e-9), each rounded so the shown ones add up too. Zero terms are left out.
export function secondsSum(terms, totalSeconds) {
  const kept = terms.filter((t) => t.seconds > 0);
  const u = secondsUnit(totalSeconds, Math.min(totalSeconds, ...kept.map((t) => t.seconds)));
  const exactSum = kept.reduce((a, t) => a + t.seconds, 0);
  const addsUp = Math.abs(exactSum - totalSeconds) <= 1e-9 * Math.max(1, Math.abs(totalSeconds));
  const shown = addsUp ? roundTogether(kept.map((t) => t.seconds * u.scale), totalSeconds * u.scale) : kept.map((t) => t.seconds * u.scale);
  const f = (x) => `${formatNumber2(x)}${UNIT_SPACE}${u.label}`;
  const format = (seconds) => f(seconds * u.scale);
  if (kept.length === 1 && addsUp) return { adds_up: true, format, text: `${kept[0].label} ${f(totalSeconds * u.scale)}, the whole step` };
  return { adds_up: addsUp, format, text: `${kept.map((t, i) => `${t.label} ${f(shown[i])}`).join(' + ')} ${addsUp ? '=' : '≈'} ${f(totalSeconds * u.scale)}` };
}

// Powers of two from 1 to maxDevices (the device axis: 1,024, or more when tensor and pipeline
// parallelism multiply the count); at most 11 on a wide box and 6 on a narrow one, and at least
// `minStep` doublings apart (where the plot is too narrow for more), counted back from the last.
export function deviceTicks(wide, maxDevices = 1024, minStep = 1) {
  const all = Array.from({ length: Math.round(Math.log2(maxDevices)) + 1 }, (_, i) => 2 ** i);
  const step = Math.max(minStep, Math.ceil(all.length / (wide ? 11 : 6)));
  return all.filter((n, i) => (all.length - 1 - i) % step === 0);
}

// Powers of ten inside [lo, hi] (a log axis); at most `max` of them, thinned evenly.
export function decadeTicks(lo, hi, max = 6) {
  const out = [];
  for (let e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e += 1) out.push(10 ** e);
  const step = Math.ceil(out.length / max);
  return out.filter((v, i) => i % step === 0);
}

// Tick words: "1", "10", "1K", "10K", "1M" (tokens); "1 ms", "0.1 s", "10 s" (seconds); "1,024" (devices).
export function countTick(n) {
  if (n >= 1e6) return `${Number((n / 1e6).toPrecision(3))}M`;
  if (n >= 1e3) return `${Number((n / 1e3).toPrecision(3))}K`;
  return `${Number(n.toPrecision(3))}`;
}
export function secondsTick(s) {
  if (s >= 0.1) return `${Number(s.toPrecision(3))}${UNIT_SPACE}s`;
  if (s >= 1e-4) return `${Number((s * 1e3).toPrecision(3))}${UNIT_SPACE}ms`;
  return `${Number((s * 1e6).toPrecision(3))}${UNIT_SPACE}µs`;
}

// The left margin that holds the widest y tick word (11 px, ~6.6 px a character) beside the turned axis title.
export const leftMargin = (tickTexts) => Math.ceil(22 + Math.max(0, ...tickTexts.map((t) => t.length)) * 6.6 + 10);

// Words beside a mark at x, inside [x1, x2]: to its right where they fit (bold 11.5 px: ~7 px a
// character), else to its left, else the side with more room, starting or ending at that edge.
export function placeBeside(x, text, x1, x2, gap = 8) {
  const px = text.length * 7;
  if (x + gap + px <= x2) return { tx: x + gap, anchor: 'start' };
  if (x - gap - px >= x1) return { tx: x - gap, anchor: 'end' };
  return x - x1 > x2 - x ? { tx: x1, anchor: 'start' } : { tx: x2, anchor: 'end' };
}

// A label's box as drawn (bold 11.5 px: ~7 px a character; baseline y, ~11 px above it and 3 below).
export function labelBox({ x, y, anchor, text }) {
  const w = text.length * 7;
  const left = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
  return { left, right: left + w, top: y - 11, bottom: y + 3 };
}
export const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// Words placed in turn, each at its first candidate spot inside `bounds` that meets no word placed
// before it and no mark in `obstacles` (boxes); with none free, its first spot inside the bounds.
// items: [{ key, cls, text, candidates: [{ x, y, anchor, text? }], avoid? }] → [{ key, cls, text, x, y, anchor }];
// a candidate's own text is a shorter wording tried there; `avoid`: boxes that item alone keeps clear
// of (another line's wider margin, so it never reads as that line's).
export function placeLabels(items, bounds, obstacles = []) {
  const taken = [...obstacles];
  return items.map((item) => {
    const spots = item.candidates.map((c) => ({ text: item.text, ...c }));
    const inside = spots.filter((c) => { const b = labelBox(c); return b.left >= bounds.left && b.right <= bounds.right && b.top >= bounds.top && b.bottom <= bounds.bottom; });
    const blocked = [...taken, ...(item.avoid || [])];
    const free = inside.find((c) => !blocked.some((t) => overlaps(labelBox(c), t)));
    // An optional word (one the key or the summary also gives) is left out rather than drawn over another.
    if (!free && item.optional) return { key: item.key, cls: item.cls, text: '', x: spots[0].x, y: spots[0].y, anchor: spots[0].anchor };
    const spot = free || inside[0] || spots[0];
    taken.push(labelBox(spot));
    return { key: item.key, cls: item.cls, text: spot.text, x: spot.x, y: spot.y, anchor: spot.anchor };
  });
}
// A straight line from (xa, ya) to (xb, yb) as boxes every ~6 px, `pad` either side, for placeLabels'
// obstacles: words placed against them never lie across the line.
export function lineBoxes(xa, ya, xb, yb, pad = 2) {
  const n = Math.max(1, Math.ceil(Math.hypot(xb - xa, yb - ya) / 6));
  return Array.from({ length: n + 1 }, (_, i) => {
    const px = xa + ((xb - xa) * i) / n;
    const py = ya + ((yb - ya) * i) / n;
    return { left: px - pad, right: px + pad, top: py - pad, bottom: py + pad };
  });
}
// A round mark's box, for placeLabels' obstacles.
export const dotBox = (cx, cy, r) => ({ left: cx - r, right: cx + r, top: cy - r, bottom: cy + r });

// An x-axis title centred under the plot [x1, x2], moved left where it would run past the chart's
// right edge W (12 px semi-bold: ~7 px a character).
export function axisTitleUnder(text, x1, x2, W, y) {
  const half = (text.length * 7) / 2;
  return { text, x: Math.max(half + 2, Math.min((x1 + x2) / 2, W - half - 2)), y };
}

// The chapter's r, a ratio with no unit: three significant figures (0.0172), so 1/r stays readable.
export const formatR = (r) => (Number.isFinite(r) ? (r === 0 ? '0' : String(Number(r.toPrecision(3)))) : '—');
