// Act 3's crossover as SVG: time per step against tokens per device (both log scales). Two lines
// meet at the engine's crossover (`crossover_tokens_per_device`: fully sharded for ZeRO-3, data
// parallel otherwise): the compute that hides the communication (the backward pass for DDP's
// all-reduce, forward + backward for ZeRO-3's gathers: `formulas.crossover`'s seconds per token ×
// tokens) and that communication (flat: its seconds). The band below the crossover is where it cannot
// hide; the scenario's tokens per device sit on the compute line. Device and interconnect move the
// lines. Layout: crossoverModel() / crossoverLayout() in models/crossover-model.js.
//
// mountCrossoverChart(container, { format }) → { update(result, context), destroy() }
//   format:  'gb' | 'gib' or { units } (unused here: the chart shows no bytes; kept for one signature).
//   result:  evaluate's JSON with `parallel` (tokens_per_device, crossover_tokens_per_device,
//            formulas.crossover, zero_stage, interconnect.name; else compute_s_per_token and
//            communication_s) and `device.name`.
//   context: none needed.
import { ParallelChart, gridLines, writeLabels, setLine, setAxisTitles } from './parallel-chart-frame.js';
import { attr, text } from './changed.js';
import { crossoverModel, crossoverLayout } from '../models/crossover-model.js';

class CrossoverChart extends ParallelChart {
  constructor(container) {
    super(container, { name: 'Compute and communication against tokens per device', className: 'pcross' });
    const f = this.frame;
    this.band = f.svg.append('rect').attr('class', 'exposed-band');
    this.gGrid = f.svg.append('g').attr('class', 'grid');
    this.addAxisTitles();
    this.comm = f.svg.append('line').attr('class', 'comm-line');
    this.compute = f.svg.append('line').attr('class', 'compute-line');
    this.cross = f.svg.append('line').attr('class', 'cross-line');
    this.scenarioLine = f.svg.append('line').attr('class', 'scenario-line');
    this.scenario = f.svg.append('circle').attr('class', 'scenario-point').attr('r', 6);
    this.gText = f.svg.append('g').attr('class', 'labels');
  }

  draw(result, context) {
    const model = crossoverModel(result);
    const L = crossoverLayout(model, this.width());
    attr(this.band, 'display', L.band ? null : 'none');
    if (L.band) attr(attr(attr(attr(this.band, 'x', L.band.x), 'width', L.band.width), 'y', L.band.y), 'height', L.band.height);
    gridLines(this.gGrid, { ...L, x1: L.M.left, x2: L.W - L.M.right });
    setAxisTitles(this.xTitle, this.yTitle, L);
    const c = L.compute;
    setLine(this.compute, c.x1, c.y1, c.x2, c.y2);
    attr(this.comm, 'display', L.comm ? null : 'none');
    if (L.comm) setLine(this.comm, L.comm.x1, L.comm.y, L.comm.x2, L.comm.y);
    attr(this.cross, 'display', L.cross ? null : 'none');
    if (L.cross) setLine(this.cross, L.cross.x, L.top, L.cross.x, L.base);
    const s = L.scenario;
    setLine(this.scenarioLine, s.x, s.cy, s.x, L.base);
    attr(attr(attr(this.scenario, 'cx', s.x), 'cy', s.cy), 'data-tokens', model.tokens);
    writeLabels(this.gText, L.labels);
    const key = [
      { cls: 'swatch--line-compute', text: capital(model.words.compute) },
      ...(L.comm ? [{ cls: 'swatch--line-comm', text: `${capital(model.words.comm)} (${model.interconnect})` }] : []),
      ...(L.band ? [{ cls: 'swatch--band', text: `Here ${model.words.band}` }] : []),
      { cls: 'swatch--point-scenario', text: 'This setup' },
    ];
    this.frame.frame({ W: L.W, H: L.H, summary: model.summary, key, tables: model.tables });
  }
}

const capital = (t) => t.charAt(0).toUpperCase() + t.slice(1);

// `format` is accepted for the charts' one signature; this chart shows no bytes.
export function mountCrossoverChart(container) {
  return new CrossoverChart(container).api();
}
