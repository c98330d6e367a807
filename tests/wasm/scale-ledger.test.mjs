// Act 3's design-ledger record checked by the engine (core/facade/facade_ledger_act3.cpp) through the
// built modules: a record built with lab_scale, as act3-model.js act3Record builds it, verifies in
// lab_ledger and through `labctl verify`; an edited value differs, naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine, loadScaleEngine } from '../../scripts/engine-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const scale = await loadScaleEngine();
const { verify_ledger: verifyLedger } = await loadEngine();
const call = (fn, x) => JSON.parse(scale[fn](JSON.stringify(x)));

// toScenario3(PREDICT3) and an explored setting, as the page writes them.
const parallel = { data_parallel: 1, zero_stage: 3, tensor_parallel: 1, sequence_parallel: false, pipeline_parallel: 1, micro_batches: 1, interconnect: 'ideal', overlap: true };
const predict = { model: 'gpt2-xl', device: 'rtx4060-laptop-8gb', optimizer: 'adam', precision: 'mixed', batch_size: 1, checkpointing: 'full', schedule_steps: 0, parallel };
const settings = { ...predict, batch_size: 2, parallel: { ...parallel, data_parallel: 16, interconnect: 'pcie4' } };

function act3Record() {
  const steps = Object.fromEntries(['nvlink4', 'pcie4', 'ethernet-10g'].map((id) =>
    [id, call('evaluate', { ...settings, parallel: { ...settings.parallel, interconnect: id } }).parallel.step_s]));
  return {
    act: 3, settings, prediction: { devices: 2 },
    devices_needed: call('solve', predict).fewest_devices.by_stage[3].devices,
    prediction_scenario: predict, step_s_by_interconnect: steps,
    reflect: [{ id: 'act3_dp', choice: 'copies', correct: true }, { id: 'act3_ceiling', choice: 'ratio', correct: true }],
  };
}
const ledgerWith = (record) => {
  const ledger = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/ledger/valid-complete.json'), 'utf8'));
  ledger.result_snapshot.act3 = record;
  return ledger;
};
const engineVerify = (ledger) => JSON.parse(verifyLedger(JSON.stringify(ledger)));

test('an Act 3 record built through lab_scale verifies in lab_ledger; an edit differs, naming the field', () => {
  const record = act3Record();
  assert.equal(record.devices_needed, 4);
  const ok = engineVerify(ledgerWith(record));
  assert.equal(ok.status, 'ok', JSON.stringify(ok.differing_fields || ok.error));
  assert.ok(ok.fields.some((f) => f.field === 'result_snapshot.act3.step_s_by_interconnect.ethernet-10g'));
  const edited = engineVerify(ledgerWith({ ...record, devices_needed: 8 }));
  assert.equal(edited.status, 'differs');
  assert.deepEqual(edited.differing_fields, ['result_snapshot.act3.devices_needed']);
  const wrongScore = engineVerify(ledgerWith({ ...record, reflect: [{ id: 'act3_dp', choice: 'split', correct: true }] }));
  assert.deepEqual(wrongScore.differing_fields, ['result_snapshot.act3.reflect[0].correct']);
  const unreadable = engineVerify(ledgerWith({ ...record, settings: { ...settings, parallel: { ...settings.parallel, zero_stage: 9 } } }));
  assert.equal(unreadable.status, 'invalid');
  assert.equal(unreadable.error.field, 'result_snapshot.act3.settings');
  assert.match(unreadable.error.message, /parallel\.zero_stage/);
});

// labctl verify checks the page's schema first (web/src/state/schema/design-ledger.schema.json, the page's
// side of the record): until it lists result_snapshot.act3, an Act 3 ledger is refused before the engine.
const schema = JSON.parse(readFileSync(path.join(root, 'web/src/state/schema/design-ledger.schema.json'), 'utf8'));
const schemaHasAct3 = Boolean(schema.properties.result_snapshot.properties.act3);
test('labctl verify: the Act 3 record round trip (ok, then an edited step time differs)', { skip: !schemaHasAct3 && 'the ledger schema has no result_snapshot.act3 yet (the page side of issue 28)' }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'labctl-act3-'));
  try {
    const record = act3Record();
    writeFileSync(path.join(dir, 'ok.json'), JSON.stringify(ledgerWith(record)));
    const slower = { ...record, step_s_by_interconnect: { ...record.step_s_by_interconnect, pcie4: record.step_s_by_interconnect.pcie4 * 2 } };
    writeFileSync(path.join(dir, 'edited.json'), JSON.stringify(ledgerWith(slower)));
    const labctl = (file) => spawnSync(path.join(root, 'scripts', 'labctl'), ['verify', '--json', file], { encoding: 'utf8', timeout: 120000 });
    const ok = labctl(path.join(dir, 'ok.json'));
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const edited = labctl(path.join(dir, 'edited.json'));
    assert.equal(edited.status, 1, edited.stdout);
    assert.match(edited.stdout, /result_snapshot\.act3\.step_s_by_interconnect\.pcie4/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
