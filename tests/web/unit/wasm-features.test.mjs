// web/src/engine/wasm-features.js: the relaxed-SIMD probe the "Measure it" worker uses to pick its build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { relaxedSimdSupported } from '../../../web/src/engine/wasm-features.js';

const probe = fileURLToPath(new URL('../../../web/src/engine/wasm-features.js', import.meta.url));
const ask = (flags) => spawnSync(process.execPath, [...flags, '--input-type=module', '-e',
  `import { relaxedSimdSupported } from ${JSON.stringify(probe)}; process.stdout.write(String(relaxedSimdSupported()));`],
{ encoding: 'utf8' }).stdout;

const major = Number(process.versions.node.split('.')[0]);
test('Node 20 validates the probe module only with relaxed SIMD switched on',
  { skip: major !== 20 && `Node ${major}: relaxed SIMD may be on by default` }, () => {
    assert.equal(ask(['--experimental-wasm-relaxed-simd']), 'true');
    assert.equal(ask([]), 'false');
  });

test('the probe is a well-formed module whose only unusual instruction is relaxed_madd', () => {
  // Hand the probe a validator that records the bytes: magic, version, then one function of type
  // () -> v128 whose body ends with 0xfd 0x85 0x02 (f32x4.relaxed_madd) and `end`.
  let seen;
  assert.equal(relaxedSimdSupported({ validate: (b) => { seen = b; return true; } }), true);
  assert.deepEqual([...seen.slice(0, 8)], [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  assert.deepEqual([...seen.slice(-4)], [0xfd, 0x85, 0x02, 0x0b]);
});

test('no WebAssembly, or a validator that throws, means no relaxed SIMD', () => {
  assert.equal(relaxedSimdSupported(null), false);
  assert.equal(relaxedSimdSupported({ validate: () => { throw new Error('nope'); } }), false);
  assert.equal(relaxedSimdSupported({ validate: () => false }), false);
});
