// Act 3's communication tax as SVG: speedup against the device count N (both log scales, N from 1 to
// 1,024): the ideal line N, the chapter's curve N / (1 + (N − 1) r) drawn with the engine's r for this
// scenario (`parallel.communication_ratio`), the engine's own speedups for N = 1, 2, 4, … 1,024, the
// scenario's point, and the ceiling 1/r named. Points that do not fit in memory are hollow and say so.
// Layout: commTaxModel() / commTaxLayout() in models/comm-tax-model.js.
//
// mountCommTaxChart(container, { format }) → { update(result, context), destroy() }
//   format:  'gb' | 'gib' or { units } (unused here: the chart shows no bytes; kept for one signature).
//   result:  evaluate's JSON for the scenario on screen, with `parallel` (communication_ratio,
//            devices, speedup, scaling_efficiency) and `memory` (fits).
//   context: { points: [{ devices, speedup, fits? }] } — the act's engine results for the same
//            scenario at N = 1, 2, 4, … 1,024 (`parallel.speedup`, `memory.fits`); may be empty.
import { ParallelChart, gridLines, writeLabels, setLine, setAxisTitles } from './parallel-chart-frame.js';
import { attr, text } from './changed.js';
import { commTaxModel, commTaxLayout } from '../models/comm-tax-model.js';

class CommTaxChart extends ParallelChart {
  constructor(container) {
    super(container, { name: 'Speedup against the number of devices', className: 'ptax' });
    const f = this.frame;
    this.gGrid = f.svg.append('g').attr('class', 'grid');
    this.addAxisTitles();
    this.ideal = f.svg.append('path').attr('class', 'ideal-line');
    this.ceiling = f.svg.append('line').attr('class', 'ceiling-line');
    this.curve = f.svg.append('path').attr('class', 'curve-line');
    this.gPoints = f.svg.append('g').attr('class', 'engine-points');
    this.scenario = f.svg.append('circle').attr('class', 'scenario-point').attr('r', 6.5);
    this.gText = f.svg.append('g').attr('class', 'labels');
  }

  draw(result, context) {
    const model = commTaxModel(result, context.points || []);
    const L = commTaxLayout(model, this.width());
    gridLines(this.gGrid, L);
    setAxisTitles(this.xTitle, this.yTitle, L);
    attr(this.ideal, 'd', L.ideal);
    attr(this.curve, 'd', L.curve);
    attr(this.ceiling, 'display', L.ceiling ? null : 'none');
    if (L.ceiling) setLine(this.ceiling, L.x1, L.ceiling.y, L.x2, L.ceiling.y);
    const pts = this.gPoints.selectAll('circle').data(L.points, (q) => q.devices).join('circle');
    attr(pts, 'class', (q) => `engine-point${q.fits ? '' : ' engine-point--oom'}`);
    attr(pts, 'r', 4);
    attr(pts, 'cx', (q) => q.cx);
    attr(pts, 'cy', (q) => q.cy);
    attr(pts, 'data-devices', (q) => q.devices);
    const s = L.scenario;
    attr(attr(attr(attr(this.scenario, 'cx', s.cx), 'cy', s.cy), 'class', `scenario-point${s.fits ? '' : ' scenario-point--oom'}`), 'data-devices', s.devices);
    writeLabels(this.gText, L.labels);
    const key = [
      { cls: 'swatch--line-ideal', text: 'Ideal: N times faster' },
      { cls: 'swatch--line-curve', text: 'Chapter’s curve with this r' },
      ...(model.engine.length ? [{ cls: 'swatch--point-engine', text: 'Engine' }] : []),
      // Hollow points (the engine's or this setup's) do not fit: the key says so (the walk found them unexplained).
      ...(model.engine.some((q) => !q.fits) || !model.scenario.fits ? [{ cls: 'swatch--point-oom', text: 'Hollow: does not fit in memory' }] : []),
      { cls: 'swatch--point-scenario', text: 'This setup' },
      ...(L.ceiling ? [{ cls: 'swatch--line-ceiling', text: 'Ceiling 1/r' }] : []),
    ];
    this.frame.frame({ W: L.W, H: L.H, summary: model.summary, key, tables: model.tables });
  }
}

// `format` is accepted for the charts' one signature; this chart shows no bytes.
export function mountCommTaxChart(container) {
  return new CommTaxChart(container).api();
}
