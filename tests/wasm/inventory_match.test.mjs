// Across the two WASM modules: the page's ledger (lab_core evaluate, activation_model "inventory")
// predicts exactly the bytes the reference engine (lab_train) measures while it trains.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, loadTrainEngine } from '../../scripts/engine-node.mjs';

const core = await loadEngine();
const trainer = await loadTrainEngine();
const shape = { layers: 2, hidden: 48, heads: 3, vocab: 40, context: 24, mlp_hidden: 96, tied_head: false };

const cases = [
  { precision: 'fp32', optimizer: 'adam', checkpointing: 'none', batch_size: 2, seq_len: 24 },
  { precision: 'mixed', optimizer: 'momentum', checkpointing: 'selective', batch_size: 4, seq_len: 12 },
  { precision: 'bf16', optimizer: 'sgd', checkpointing: { every_k_layers: 2 }, batch_size: 1, seq_len: 20 },
  { precision: 'fp16', optimizer: 'adam', checkpointing: 'full', batch_size: 3, seq_len: 7 },
];

for (const c of cases) {
  test(`ledger inventory mode == measured bytes (${c.precision}, ${c.optimizer}, ${JSON.stringify(c.checkpointing)})`, () => {
    const ledger = JSON.parse(core.evaluate(JSON.stringify({ model: shape, activation_model: 'inventory', ...c })));
    const run = JSON.parse(trainer.train(JSON.stringify({
      vocab: shape.vocab, context: shape.context, d_model: shape.hidden, heads: shape.heads, layers: shape.layers,
      mlp_hidden: shape.mlp_hidden, steps: 1, ...c })));
    assert.equal(ledger.error, undefined, JSON.stringify(ledger.error));
    assert.equal(run.error, undefined, JSON.stringify(run.error));
    const at = run.memory.measured.at_peak;
    const m = ledger.memory;
    assert.equal(m.components.weights, at.weights);
    assert.equal(m.components.master_weights, at.master_weights);
    assert.equal(m.components.gradients, at.gradients);
    assert.equal(m.components.optimizer_state, at['optimizer:momentum'] + at['optimizer:adam_m'] + at['optimizer:adam_v']);
    assert.equal(m.components.activations, at.activations);
    assert.equal(m.components.logits, at.logits);
    assert.equal(m.peak_bytes, run.memory.measured.peak_bytes);
    assert.deepEqual(m.inventory.max_by_category, run.memory.measured.max_by_category);
  });
}
