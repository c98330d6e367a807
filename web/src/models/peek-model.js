// The Math Peek's lines for the ledger, DOM-free: the formula with every symbol bound to one engine
// result's numbers. A formula is shown bound only when, evaluated with those numbers, it gives the
// engine's own figure (the check is in code, so a formula that does not hold is never printed as if
// it did); otherwise the line shows the engine's figures alone. Sums use formatSum (= or ≈).
// Line: { key, label, formula, op, value, note? } (op '' for a definition; note follows the value). Rendered by ui/math-peek.js.
import { formatBytes, formatInt, formatSum, formatCount } from '../format/format.js';

const VECTOR_WORDS = { momentum: 'momentum', adam_m: 'Adam m', adam_v: 'Adam v' };
const elementWord = (bytesPerParam) => (bytesPerParam === 4 ? 'FP32' : bytesPerParam === 2 ? '16-bit' : `${bytesPerParam} B`);

// Korthikanti et al. (2022) per-layer activation bytes, with the element size e written out (their
// 34·s·b·h + 5·a·s²·b is e = 2 with 1-byte dropout masks): returns { formula, bytes } or null.
function perLayerFormula(mode, { s, b, h, a, e }) {
  const sbh = s * b * h;
  const n = (x) => formatInt(x);
  if (mode === 'none') {
    return { formula: `s·b·h·(16e + 2 + (2e + 1)·a·s/h) = ${n(s)} × ${n(b)} × ${n(h)} × (${16 * e + 2} + ${2 * e + 1} × ${a} × ${n(s)} / ${n(h)})`,
      bytes: sbh * (16 * e + 2 + ((2 * e + 1) * a * s) / h) };
  }
  if (mode === 'selective') return { formula: `s·b·h·(16e + 2) = ${n(s)} × ${n(b)} × ${n(h)} × ${16 * e + 2}`, bytes: sbh * (16 * e + 2) };
  return { formula: `e·s·b·h (the layer’s input only) = ${e} × ${n(s)} × ${n(b)} × ${n(h)}`, bytes: e * sbh };
}

function modeOf(scenario) {
  const c = scenario.checkpointing;
  return typeof c === 'object' && c ? 'every_k' : c;
}

export function peekLines(result, units = 'gb', { withoutCheckpointing = null } = {}) {
  const m = result.memory;
  const bp = m.bytes_per_parameter;
  const c = m.components;
  const d = m.activations_detail;
  const sc = result.scenario;
  const md = result.model;
  const N = m.parameters_counted;
  const f = (x) => formatBytes(x, units);
  // One term is not a sum: it shows as "logits = 0.21 GB", never "logits 0.21 GB = 0.21 GB".
  const sum = (terms, total) => {
    if (terms.length === 1) return { formula: terms[0].label, op: '=', value: f(total === undefined ? terms[0].bytes : total) };
    const s = formatSum(terms.map((t) => t.bytes), units, total);
    return { formula: terms.map((t, i) => `${t.label} ${s.terms[i]}`).join(' + '), op: s.op, value: s.total };
  };
  const e = d.element_bytes;
  const lines = [];
  lines.push({ key: 'symbols', label: 'Symbols', op: '', value: '',
    formula: `N = ${formatInt(N)} parameters; L = ${md.layers} layers, h = ${formatInt(md.hidden)}, a = ${md.heads} heads; s = ${formatInt(sc.seq_len)} tokens, b = ${formatCount(sc.batch_size, 'sequence')} per batch; e = ${e} B per activation element; W, M, G, O = bytes per parameter of the weights, FP32 master copy, gradients and optimizer state.` });
  lines.push({ key: 'static', label: 'Static', op: '=', value: f(m.static_bytes),
    formula: `N × (W + M + G + O) = ${formatInt(N)} × (${bp.weights} + ${bp.master_weights} + ${bp.gradients} + ${bp.optimizer_state}) B = ${formatInt(N)} × ${bp.static} B` });
  const vec = m.optimizer_vectors;
  if (vec.length) {
    const words = vec.map((v) => `${VECTOR_WORDS[v.name] || v.name} ${v.bytes / N} B (${elementWord(v.bytes / N)})`).join(' + ');
    if (vec.length === 1) {
      // One vector: the product itself ("N × 4 B"), not a one-term sum.
      const per = vec[0].bytes / N;
      lines.push({ key: 'optimizer', label: 'Optimizer state', op: N * per === c.optimizer_state ? '=' : '≈', value: f(c.optimizer_state),
        formula: `N × O, O = ${words} per parameter: ${formatInt(N)} × ${per} B` });
    } else {
      const s = sum(vec.map((v) => ({ label: VECTOR_WORDS[v.name] || v.name, bytes: v.bytes })), c.optimizer_state);
      lines.push({ key: 'optimizer', label: 'Optimizer state', op: s.op, value: s.value,
        formula: `N × O, O = ${words} per parameter: ${s.formula}` });
    }
  } else {
    lines.push({ key: 'optimizer', label: 'Optimizer state', op: '=', value: f(0), formula: 'plain SGD keeps no optimizer state: N × 0 B' });
  }
  lines.push(activationLine(result, f, withoutCheckpointing));
  const extra = [{ label: 'logits', bytes: c.logits }, { label: 'framework/context reserve', bytes: c.reserve }].filter((t) => t.bytes > 0);
  if (extra.length) lines.push({ key: 'extra', label: extra.length > 1 ? 'Logits + reserve' : 'Logits', ...sum(extra) });
  lines.push({ key: 'total', label: 'Total (steady)', ...sum([{ label: 'static', bytes: m.static_bytes }, { label: 'activations', bytes: c.activations }, ...extra], m.total_bytes) });
  const tr = m.transients;
  const peakTerms = [{ label: 'total', bytes: m.total_bytes }, { label: 'logits gradient', bytes: tr.logits_gradient }, { label: 'recompute working set', bytes: tr.recompute_working_set }]
    .filter((t, i) => i === 0 || t.bytes > 0);
  lines.push({ key: 'peak', label: 'Peak (backward)', ...(peakTerms.length > 1 ? sum(peakTerms, m.peak_bytes) : { formula: 'the total: nothing extra is live at the peak', op: '=', value: f(m.peak_bytes) }) });
  lines.push({ key: 'budget', label: 'Device budget', op: '=', value: f(m.usable_device_bytes),
    formula: `usable memory as the driver reports it (${formatBytes(m.usable_device_bytes, units === 'gib' ? 'gb' : 'gib')})` });
  return lines;
}

function activationLine(result, f, without) {
  const m = result.memory;
  const d = m.activations_detail;
  const sc = result.scenario;
  const md = result.model;
  const act = m.components.activations;
  const mode = modeOf(sc);
  const note = mode === 'none' || !without || without.error ? '' : `(without checkpointing: ${f(without.memory.components.activations)})`;
  if (sc.chapter_replay) {
    // The chapter's flat figure, scaled: A₃₂ × b/32 × s/1,024 × e/4 × kept share (every k layers:
    // 1 − s·(1 − (k + L/k)/L), so k = 4 is the chapter's 4×; the engine reports the share and s).
    const share = d.chapter_kept_share ?? 1;
    const a32 = (act * 32 * 1024 * 4) / (share * sc.batch_size * sc.seq_len * d.element_bytes);
    const k = mode === 'every_k' ? sc.checkpointing.every_k_layers : null;
    const kept = k === null ? (share === 1 ? '' : ` × ${share.toFixed(3)} (this scheme’s share in the physics model)`)
      : ` × kept share ${share.toFixed(3)} (1 − s·(1 − (k + L/k)/L), at most 1, with k = ${k}, L = ${md.layers}, s = ${d.chapter_saving_scale.toFixed(3)}: the chapter’s k·A + (L/k)·A, its saving scaled so k = 4 gives the chapter’s 4×)`;
    return { key: 'activations', label: 'Activations', op: '=', value: f(act),
      formula: `the chapter’s ${f(a32)} (FP32, batch 32) × ${sc.batch_size}/32 × ${formatInt(sc.seq_len)}/1,024 × ${d.element_bytes}/4${kept}`, note };
  }
  const dims = { s: sc.seq_len, b: sc.batch_size, h: md.hidden, a: md.heads, e: d.element_bytes };
  const per = perLayerFormula(mode === 'every_k' ? 'full' : mode, dims);
  const holds = per && per.bytes === d.per_layer_saved_bytes && d.layers_saving * d.per_layer_saved_bytes === act;
  const layers = mode === 'every_k' ? `⌈L/k⌉ × per segment input = ${d.layers_saving}` : `L × per layer = ${d.layers_saving}`;
  const perText = holds ? `per layer ${per.formula} = ${formatInt(per.bytes)} B` : 'per layer as the engine counts it';
  const rebuilt = mode === 'full' || mode === 'every_k' ? '; the layers rebuilt in backward count in the peak' : '';
  const withoutText = note ? `; ${note.slice(1, -1)}` : '';
  const op = d.layers_saving * d.per_layer_saved_bytes === act ? '=' : '≈';
  return { key: 'activations', label: 'Activations', op, value: f(act), note: `(${perText}${rebuilt}${withoutText})`,
    formula: `${layers} × ${formatInt(d.per_layer_saved_bytes)} B`, bound: holds };
}
