// The clock the engine timed with, in words for the Measure-it panel (no DOM): its step as a speed
// row, and a sentence where it is coarse (Firefox and Safari round their clock to 1 ms) or where a
// run was too short for spans of 100 ticks. Every figure comes from the training report.
import { formatInt } from '../format/format.js';

export const COARSE_CLOCK_SECONDS = 0.5e-3; // Chromium's clock moves in 0.1 ms steps; Firefox's and Safari's in 1 ms
const SPAN_TICKS = 100; // the engine's spans (core/refengine/clock.hpp, kSpanTicks)

export function clockStepText(seconds) {
  return seconds >= 5e-5 ? `${(seconds * 1000).toFixed(1)} ms` : `${(seconds * 1e6).toFixed(1)} µs`;
}

export function clockRow(report) {
  const s = report.time && report.time.clock_resolution_seconds;
  if (!(s > 0)) return null;
  return { key: 'clock_resolution', label: 'Clock step in this browser', value: s, text: clockStepText(s) };
}

// '' when the clock is fine and every span long enough.
export function clockSentence(report) {
  const t = report.time || {};
  const s = t.clock_resolution_seconds;
  if (!(s > 0)) return '';
  const out = [];
  if (s >= COARSE_CLOCK_SECONDS) {
    const reps = report.peak ? ` the peak over ${formatInt(report.peak.repetitions_per_span)} matrix multiplies at a time, and` : '';
    out.push(`This browser’s clock moves in steps of ${clockStepText(s)}, too coarse to time one step or one matrix multiply, so the engine timed${reps} the steps in groups lasting at least ${formatInt(SPAN_TICKS)} clock steps.`);
  }
  if (t.steps > 0 && t.shortest_span_ticks > 0 && t.shortest_span_ticks < SPAN_TICKS) {
    out.push(`This run was too short to time precisely: its steps lasted only ${formatInt(Math.floor(t.shortest_span_ticks))} clock steps, so its speed may be off by up to ${formatInt(Math.ceil(100 / t.shortest_span_ticks))}%.`);
  }
  return out.join(' ');
}
