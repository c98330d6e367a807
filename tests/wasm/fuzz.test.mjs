// Seeded random requests (wrong types, extreme numbers, unknown fields, nested junk) through every
// facade function of both WASM modules: each answer is JSON with a result or a structured error, and
// the modules keep answering correctly afterwards. "The WASM module must never abort from user input."
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, loadTrainEngine } from '../../scripts/engine-node.mjs';
import { loadLedgerEngine, fixtureText } from './ledger-engine.mjs';

const core = await loadEngine();
const trainer = await loadTrainEngine();

let seed = 0x2545f491;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const junkValues = [0, -1, 1, 2.5, 1e30, -1e30, 1e-300, 2 ** 63, 65536, 4096, '', 'gpt2-xl', 'fp16', 'none',
  'selective', '32', true, false, null, [], [1, 2], {}, { every_k_layers: 4 }, { every_k_layers: -3 },
  { base: 'gpt2-small', layers: 1e9 }, { layers: 2, hidden: 8, heads: 2, vocab: 10, context: 8 }, 'x'.repeat(300)];
const scenarioKeys = ['model', 'device', 'precision', 'optimizer', 'batch_size', 'seq_len', 'checkpointing',
  'activation_model', 'flash_attention', 'convention', 'reserve_bytes', 'chapter_replay', 'train_tokens',
  'num_devices', 'efficiency', 'data_workers', 'worker_tokens_per_s', 'prefetch', 'prefetch_depth',
  'pinned_memory', 'host_link_bytes_per_s', 'epoch_tokens', 'schedule_steps', 'bogus_field'];
const trainKeys = ['vocab', 'context', 'd_model', 'heads', 'layers', 'mlp_hidden', 'batch_size', 'seq_len',
  'precision', 'optimizer', 'learning_rate', 'checkpointing', 'loss_scale', 'steps', 'seed', 'task', 'not_a_field'];

function randomRequest(keys, extra = {}) {
  const r = { ...extra };
  const n = Math.floor(rand() * 5);
  for (let i = 0; i < n; i++) r[pick(keys)] = pick(junkValues);
  if (rand() < 0.1) return JSON.stringify(r).slice(0, Math.floor(rand() * 40));  // truncated JSON
  if (rand() < 0.05) return pick(['[]', '7', 'null', '"text"', '{"a":NaN}', '']);
  return JSON.stringify(r);
}

function answerIsWellFormed(text) {
  const out = JSON.parse(text);  // throws if the module returned something that is not JSON
  assert.equal(typeof out, 'object');
  if (out.error) {
    assert.equal(typeof out.error.field, 'string');
    assert.ok(out.error.message.length > 0);
  }
  return out;
}

test('2,000 random evaluate requests: always JSON, then evaluate still exact', () => {
  for (let i = 0; i < 2000; i++) answerIsWellFormed(core.evaluate(randomRequest(scenarioKeys)));
  assert.equal(JSON.parse(core.evaluate('{"optimizer":"adam","precision":"fp32"}')).memory.static_bytes, 24921779200);
});

test('150 random solve requests: always JSON, then solve still finds the laptop floor', () => {
  for (let i = 0; i < 150; i++) answerIsWellFormed(core.solve(randomRequest(scenarioKeys)));
  const r = JSON.parse(core.solve('{"model":"gpt2-xl","device":"rtx4060-laptop-8gb"}'));
  assert.equal(r.floor.static_floor_bytes, 12460889600);
  assert.equal(r.device_fits_floor, false);
});

test('200 random train requests (prediction only, steps 0) and sessions: always JSON, then training still works', () => {
  for (let i = 0; i < 200; i++) {
    const text = randomRequest(trainKeys, { steps: 0 });
    answerIsWellFormed(trainer.train(text));
    const session = new trainer.TrainSession(text);
    try {
      answerIsWellFormed(session.status());
      answerIsWellFormed(session.report());
    } finally {
      session.delete();
    }
  }
  const ok = JSON.parse(trainer.train('{"steps":2,"layers":1,"d_model":16,"heads":2,"batch_size":2,"seq_len":8}'));
  assert.equal(ok.steps_done, 2);
  assert.equal(ok.memory.match, true);
});

// A valid ledger with 1–4 leaves replaced by junk (wrong types, huge numbers, nested junk), sometimes
// truncated: verify_ledger answers ok / differs / invalid with a named field, never aborts.
test('400 random mutations of a valid design ledger through verify_ledger: always a status, then it still verifies', async () => {
  const ledgerEngine = await loadLedgerEngine();
  const valid = JSON.parse(fixtureText('valid-complete.json'));
  const leaves = [];
  const walk = (v, p) => {
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
    else leaves.push(p);
  };
  walk(valid, []);
  for (let i = 0; i < 400; i++) {
    const ledger = structuredClone(valid);
    for (let n = 1 + Math.floor(rand() * 4); n > 0; n--) {
      const p = pick(leaves);
      let obj = ledger;
      for (const k of p.slice(0, -1)) obj = obj[k];
      obj[p.at(-1)] = pick(junkValues);
    }
    let text = JSON.stringify(ledger);
    if (rand() < 0.1) text = text.slice(0, Math.floor(rand() * text.length));
    const out = answerIsWellFormed(ledgerEngine.verifyText(text));
    assert.ok(['ok', 'differs', 'invalid'].includes(out.status), text.slice(0, 200));
    if (out.status === 'invalid') assert.equal(typeof out.error.field, 'string');
  }
  assert.equal(ledgerEngine.verifyLedger(fixtureText('valid-complete.json')).status, 'ok');
});
