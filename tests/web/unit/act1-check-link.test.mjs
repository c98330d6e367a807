// Act 1's "Check this step on your GPU" link (issue 27): the workbench it opens holds Act 1's step
// (model, device, precision, optimizer, batch, sequence, PyTorch's knobs), read by the workbench's own
// URL parser without an error, and its check script is the one for Act 1's scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { act1CheckHref } from '../../../web/src/state/act1-check-link.js';
import { parseWorkbenchParams } from '../../../web/src/state/workbench-url.js';
import { toScenario, DEFAULT_CONFIG } from '../../../web/src/state/scenario.js';
import { checkFor, pytorchScript } from '../../../web/src/models/pytorch-script.js';

const engine = await loadEngine();
const evaluate = (s) => JSON.parse(engine.evaluate(JSON.stringify(s)));
const ids = (kind) => JSON.parse(engine.catalog())[kind].map((x) => x.id);
const KEYS = ['model', 'precision', 'optimizer', 'batch_size', 'seq_len', 'checkpointing', 'framework', 'step', 'zero_grad', 'optimizer_impl'];

for (const [name, over] of [
  ['the default step, counted the PyTorch way', {}],
  ['SGD, pure BF16, batch 2 on a custom 50 GB device', { optimizer: 'sgd', precision: 'bf16', batch_size: 2, device: 'custom', custom_capacity_gb: 50 }],
]) {
  test(`the workbench opened from Act 1 holds Act 1's step: ${name}`, () => {
    const act1 = toScenario({ ...DEFAULT_CONFIG, framework: 'pytorch', ...over });
    const r = evaluate(act1);
    assert.equal(r.error, undefined);
    const href = act1CheckHref(r.scenario, 'gb');
    const { workbench, errors } = parseWorkbenchParams(new URLSearchParams(href.slice(1)), { modelIds: ids('models'), deviceIds: ids('devices') });
    assert.deepEqual(errors, []);
    const wb = evaluate(workbench.scenario);
    for (const k of KEYS) assert.deepEqual(wb.scenario[k], r.scenario[k], k);
    assert.equal(wb.device.capacity_bytes, r.device.capacity_bytes);
    // The same script but for the custom device's name ("Custom GPU" in the workbench).
    const named = (c) => ({ ...c, device_name: '', scenario: { ...c.scenario, device: typeof c.scenario.device === 'object' ? { ...c.scenario.device, name: '' } : c.scenario.device } });
    assert.equal(pytorchScript(named(checkFor(evaluate, workbench.scenario))), pytorchScript(named(checkFor(evaluate, act1))));
  });
}
