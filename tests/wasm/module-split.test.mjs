// The page's first load (lab_core) carries neither the training engine, the ledger check nor the
// multi-device physics: each has a module of its own, loaded on demand (lab_train by the Measure-it
// worker, lab_ledger by the ledger panel, lab_scale by Act 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { wasmDir } from '../../scripts/engine-node.mjs';

async function raw(name) {
  const { default: factory } = await import(pathToFileURL(path.join(wasmDir, `${name}.mjs`)).href);
  return factory({ wasmBinary: readFileSync(path.join(wasmDir, `${name}.wasm`)) });
}

test('lab_core has evaluate, solve and catalog but not verify_ledger; lab_ledger has verify_ledger', async () => {
  const core = await raw('lab_core');
  for (const f of ['evaluate', 'solve', 'catalog', 'version']) assert.equal(typeof core[f], 'function', f);
  assert.equal(typeof core.verify_ledger, 'undefined');
  const ledger = await raw('lab_ledger');
  assert.equal(typeof ledger.verify_ledger, 'function');
  assert.equal(ledger.version(), core.version());
  const r = JSON.parse(new TextDecoder().decode(ledger.verify_ledger('[]')));
  assert.equal(r.status, 'invalid');
});

test('lab_core.wasm is the smaller module (the ledger check would add a third)', () => {
  const size = (n) => statSync(path.join(wasmDir, `${n}.wasm`)).size;
  assert.ok(size('lab_core') < size('lab_ledger'), `${size('lab_core')} vs ${size('lab_ledger')}`);
});

test('lab_scale has lab_core\'s functions with "parallel" on, and the same version', async () => {
  const scale = await raw('lab_scale');
  for (const f of ['evaluate', 'solve', 'catalog', 'version']) assert.equal(typeof scale[f], 'function', f);
  assert.equal(typeof scale.verify_ledger, 'undefined');
  const core = await raw('lab_core');
  assert.equal(scale.version(), core.version());
  const request = JSON.stringify({ model: 'gpt2-xl', parallel: { data_parallel: 2 } });
  const text = (view) => JSON.parse(new TextDecoder().decode(view));
  assert.equal(text(core.evaluate(request)).error.field, 'parallel');
  assert.equal(text(scale.evaluate(request)).parallel.devices, 2);
  // The parallel physics is lab_scale's alone: lab_core stays the smaller.
  const size = (n) => statSync(path.join(wasmDir, `${n}.wasm`)).size;
  assert.ok(size('lab_core') < size('lab_scale'), `${size('lab_core')} vs ${size('lab_scale')}`);
});
