// scripts/wasm-relaxed-madd.mjs, the post-link step of the fma builds: it must rename every
// pre-standard relaxed fma instruction (0xfd 0xaf 0x01) in the code section to f32x4.relaxed_madd
// (0xfd 0x85 0x02), touch no other byte, and refuse (exit 1, file unchanged) when it cannot account
// for every match. Tested on hand-built modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/wasm-relaxed-madd.mjs', import.meta.url));
const OLD = [0xfd, 0xaf, 0x01];
const NEW = [0xfd, 0x85, 0x02];
const v128Const = (bytes = []) => [0xfd, 0x0c, ...bytes, ...new Array(16 - bytes.length).fill(0)];

// One function () -> v128 with the given body instructions, and optionally a custom section.
function module(instructions, custom = null) {
  const body = [0x00, ...instructions, 0x0b];
  const sections = [
    [0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b], // type: () -> v128
    [0x03, 0x02, 0x01, 0x00], //                  function 0 has type 0
    [0x0a, body.length + 2, 0x01, body.length, ...body],
  ];
  if (custom) sections.push([0x00, custom.length + 5, 0x04, 0x6e, 0x6f, 0x74, 0x65, ...custom]); // "note"
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...sections.flat()]);
}
const fma = [...v128Const(), ...v128Const(), ...v128Const(), ...OLD];

function run(bytes) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'madd-'));
  const file = path.join(dir, 'm.wasm');
  try {
    writeFileSync(file, bytes);
    const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', script, file], { encoding: 'utf8' });
    return { status: r.status, stderr: r.stderr, out: new Uint8Array(readFileSync(file)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const count = (bytes, pattern) => {
  let n = 0;
  for (let i = 0; i + 3 <= bytes.length; i += 1) if (pattern.every((b, k) => bytes[i + k] === b)) n += 1;
  return n;
};

test('renames the instruction in the code section and leaves a custom section with the same bytes alone', () => {
  const input = module(fma, OLD);
  const r = run(input);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.out.length, input.length);
  assert.equal(count(r.out, NEW), 1);
  assert.equal(count(r.out, OLD), 1, 'the custom section still holds the old bytes');
  assert.deepEqual([...r.out.slice(-3)], OLD);
  const diff = [...input].map((b, i) => (b !== r.out[i] ? i : -1)).filter((i) => i >= 0);
  assert.equal(diff.length, 2, 'exactly the two LEB bytes of one opcode changed');
});

test('refuses a module without the instruction', () => {
  const input = module(v128Const());
  const r = run(input);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /has no f32x4\.relaxed_fma/);
  assert.deepEqual(r.out, input);
});

test('refuses, and writes nothing, when the pattern also occurs inside an immediate', () => {
  const input = module([...v128Const(OLD), ...v128Const(), ...v128Const(), ...OLD]);
  const r = run(input);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /found the byte pattern 2 times .* wasm-dis sees 1/);
  assert.deepEqual(r.out, input);
});

test('refuses a file that is not WebAssembly', () => {
  const r = run(new TextEncoder().encode('not wasm at all'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /wasm-relaxed-madd: /);
});

// Two functions () -> v128: the first holds the instruction, the second only the same three bytes
// inside a constant (as a -Oz-built solver function did). Only the first is renamed.
function twoFunctions(first, second) {
  const bodies = [first, second].map((ins) => [0x00, ...ins, 0x0b]);
  const code = [0x02, ...bodies.flatMap((b) => [b.length, ...b])];
  const sections = [
    [0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b],
    [0x03, 0x03, 0x02, 0x00, 0x00],
    [0x0a, code.length, ...code],
  ];
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...sections.flat()]);
}

test('renames only inside the functions that hold the instruction: the same bytes in another function’s constant stay', () => {
  const input = twoFunctions(fma, v128Const(OLD));
  const r = run(input);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(count(r.out, NEW), 1);
  assert.equal(count(r.out, OLD), 1, 'the constant in the second function keeps its bytes');
  const diff = [...input].map((b, i) => (b !== r.out[i] ? i : -1)).filter((i) => i >= 0);
  assert.equal(diff.length, 2);
  assert.ok(diff[0] < input.length - 20, 'the change is in the first function');
});
