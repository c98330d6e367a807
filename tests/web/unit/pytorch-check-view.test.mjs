// The words of "Check it on your GPU" (web/src/models/pytorch-check-view.js) on the user results in
// tests/fixtures/pytorch/user/ against the real engine: every number is the comparison's, a result
// that misses by more than 1% never reads as agreeing, and times on another device are not compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { compareMeasured } from '../../../web/src/models/pytorch-compare.js';
import { checkRows, verdict, timingText, measuredOnText, bytesText, errorText, secondsText } from '../../../web/src/models/pytorch-check-view.js';
import { plainText } from '../../../web/src/format/format.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'pytorch', 'user');
const file = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()[0];
const text = readFileSync(path.join(dir, file), 'utf8');
const engine = await loadEngine();
const evaluate = (s) => JSON.parse(engine.evaluate(JSON.stringify(s)));
const cmp = compareMeasured(evaluate, JSON.parse(text).scenario, text);

test('each row shows the comparison\'s bytes and error; the peak rows are marked', () => {
  const rows = checkRows(cmp);
  assert.equal(rows.length, cmp.phases.length);
  rows.forEach((r, i) => {
    const p = cmp.phases[i];
    assert.equal(r.predicted, bytesText(p.predicted_bytes));
    assert.equal(r.measured, bytesText(p.measured_bytes));
    assert.equal(r.error, errorText(p.error_pct));
    assert.equal(r.isPeak, p.phase === 'peak');
  });
  assert.equal(plainText(bytesText(4007276)), '4.01 MB');
  assert.equal(plainText(bytesText(12_500_000_000)), '12.50 GB');
  assert.equal(errorText(-3.9104), '−3.91%');
  assert.equal(errorText(0.5), '+0.50%');
  assert.equal(errorText(-0.0006), '0.00%');
  assert.equal(plainText(secondsText(0.0454)), '45.40 ms');
});

test('the verdict agrees only within the tolerance; a larger miss names the step, the size and the side', () => {
  const ok = verdict(cmp);
  assert.equal(cmp.status, 'agrees');
  assert.equal(ok.ok, true);
  assert.match(ok.text, /^Agrees: each step's peak is within 1% of the prediction/);
  // The largest miss of any row in the table is named too, computed from the rows.
  const anyRow = cmp.phases.reduce((a, b) => (Math.abs(b.error_pct) > Math.abs(a.error_pct) ? b : a));
  assert.ok(ok.text.includes(`of any phase in the table ${errorText(anyRow.error_pct)}`), ok.text);
  const m = JSON.parse(text);
  for (const k of Object.keys(m.steady_step.phase_max_bytes)) m.steady_step.phase_max_bytes[k] = Math.round(m.steady_step.phase_max_bytes[k] * 1.05);
  m.steady_step.peak_bytes = Math.max(...Object.values(m.steady_step.phase_max_bytes));
  const off = compareMeasured(evaluate, m.scenario, JSON.stringify(m));
  const v = verdict(off);
  assert.equal(v.ok, false);
  const steady = off.phases.find((r) => r.step === 'steady' && r.phase === 'peak');
  assert.equal(v.text, `Differs: the prediction of the steady step's peak is ${(-steady.error_pct).toFixed(2)}% below what PyTorch held.`);
});

test('a CPU run\'s time is not compared with a GPU estimate; the line names both', () => {
  const t = timingText(cmp);
  assert.match(plainText(t), new RegExp(`^Measured ${plainText(secondsText(cmp.timing.measured_step_seconds))} per step on CPU; the timing model estimates`));
  assert.match(t, /Not the same device, so the two times do not compare\.$/);
  assert.equal(measuredOnText(cmp, cmp.style), `Measured on CPU with PyTorch ${cmp.measured_on.torch_version}, ${cmp.style === 'nanogpt' ? 'nanoGPT' : 'Hugging Face Llama'} code.`);
});
