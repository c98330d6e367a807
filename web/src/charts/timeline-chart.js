// Several training steps as a timeline (Gantt): one lane per resource from the engine's schedule, one
// bar per piece of work, coloured by phase and marked by step (alternate steps are hatched, so steps
// read apart without colour). Positions are percentages, so lane names keep their size at any width.
// Overlap from prefetching shows as CPU/link bars under another step's GPU bars. View model:
// act2-model.js timelineLanes(). A key under the chart names each kind of work drawn and the hatching
// (its items come from the act; it wraps, so it fits a phone).
import { select } from 'd3-selection';
import { h, replaceChildren, setAttr } from '../ui/dom.js';
import { attr, text } from './changed.js';

const LANE_H = 44; // lane name line + bar
const BAR_H = 18;
let count = 0;

export class TimelineChart {
  constructor(container, { label = 'Timeline of training steps' } = {}) {
    this.hatchId = `timeline-hatch-${++count}`;
    this.svg = select(container).append('svg').attr('class', 'chart timeline-chart').attr('width', '100%')
      .attr('role', 'img').attr('aria-label', label);
    this.svg.append('defs').append('pattern').attr('id', this.hatchId).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)')
      .append('rect').attr('class', 'hatch-stroke').attr('width', 2).attr('height', 6);
    this.gLanes = this.svg.append('g');
    this.axis = this.svg.append('g').attr('class', 'timeline-axis');
    this.key = h('ul', { class: 'timeline-key', 'aria-label': 'Key to the timeline' });
    container.append(this.key);
  }

  // model: timelineLanes(pipeline); secs(s) formats seconds; summary: the one-sentence reading;
  // key: [{ cls (a phase--… class, or swatch--hatch), text }].
  update(model, { secs, summary, key = [] }) {
    attr(attr(this.svg, 'aria-label', summary), 'height', model.lanes.length * LANE_H + 28);
    const pctX = (t) => `${(100 * t) / model.end_seconds}%`;
    const lanes = this.gLanes.selectAll('g.lane').data(model.lanes, (d) => d.key).join((enter) => {
      const e = enter.append('g').attr('class', 'lane');
      e.append('text').attr('class', 'lane-label').attr('x', 0).attr('y', 14);
      e.append('line').attr('class', 'lane-rule').attr('x1', 0).attr('x2', '100%')
        .attr('y1', 20 + BAR_H + 2).attr('y2', 20 + BAR_H + 2);
      e.append('g').attr('class', 'lane-bars');
      return e;
    });
    attr(lanes, 'transform', (d, i) => `translate(0,${i * LANE_H})`);
    attr(lanes, 'data-lane', (d) => d.key);
    text(lanes.select('text'), (d) => d.label);
    const hatch = `url(#${this.hatchId})`;
    const bars = lanes.select('g.lane-bars').selectAll('g.bar').data((d) => d.segments).join((enter) => {
      const e = enter.append('g').attr('class', 'bar');
      e.append('rect').attr('class', 'bar-fill').attr('y', 20).attr('height', BAR_H);
      e.append('rect').attr('class', 'bar-hatch').attr('y', 20).attr('height', BAR_H);
      return e;
    });
    attr(bars, 'data-step', (d) => d.step);
    attr(bars, 'data-phase', (d) => d.phase);
    bars.each(function place(d) {
      const [fill, hatchRect] = this.children;
      const x = pctX(d.start_seconds);
      const width = `${Math.max(0.15, (100 * (d.end_seconds - d.start_seconds)) / model.end_seconds)}%`;
      setAttr(fill, 'class', `bar-fill phase--${d.phase}`);
      setAttr(fill, 'x', x);
      setAttr(fill, 'width', width);
      setAttr(hatchRect, 'x', x);
      setAttr(hatchRect, 'width', width);
      setAttr(hatchRect, 'fill', d.step % 2 === 0 ? hatch : 'none');
    });
    const y = model.lanes.length * LANE_H + 4;
    const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * model.end_seconds);
    const tickText = this.axis.selectAll('text').data(ticks).join('text');
    attr(tickText, 'y', y + 14);
    attr(tickText, 'x', (t, i) => (i === 0 ? 0 : pctX(t)));
    attr(tickText, 'text-anchor', (t, i) => (i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'));
    attr(tickText, 'class', (t, i) => (i % 2 ? 'tick--quarter' : null)); // hidden on phones (act2.css): they would overlap
    text(tickText, (t) => secs(t));
    // The key changes only with the kinds of work drawn: rebuild it then, not on every input.
    const keyText = JSON.stringify(key);
    if (keyText !== this.keyText) {
      this.keyText = keyText;
      replaceChildren(this.key, key.map((k) => h('li', {}, h('span', { class: `swatch ${k.cls}`, 'aria-hidden': 'true' }), h('span', { text: k.text }))));
    }
  }

  reset() { this.gLanes.selectAll('*').remove(); this.axis.selectAll('*').remove(); this.key.replaceChildren(); this.keyText = null; }
}
