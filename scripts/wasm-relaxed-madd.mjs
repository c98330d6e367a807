// Post-link step for the "fma" WASM builds (CMakeLists.txt, core/refengine/gemm_kernel.cpp):
// renames every pre-standard relaxed-SIMD fma (0xfd 0xaf 0x01, all that clang 14 can emit) to the
// standard f32x4.relaxed_madd (0xfd 0x85 0x02: same length, same operand order, x·y + z), in place.
//   node --experimental-wasm-relaxed-simd scripts/wasm-relaxed-madd.mjs FILE.wasm
// Safety: the byte pattern is looked for only inside the bodies of the functions that binaryen's
// disassembler (wasm-dis) shows holding f32x4.relaxed_fma, and in each the number found must equal the
// number of those instructions, so no immediate or data byte can be rewritten by accident (a solver
// function compiled with -Oz held the three bytes inside a constant). The result must then validate.
// Exits 1 with a message naming the problem otherwise (the build fails; nothing is half-written).
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const OLD = [0xfd, 0xaf, 0x01];
const NEW = [0xfd, 0x85, 0x02];
const CODE_SECTION = 10;

function fail(message) {
  process.stderr.write(`wasm-relaxed-madd: ${message}\n`);
  process.exit(1);
}

function readU32(bytes, at) {
  let value = 0;
  let shift = 0;
  for (let i = at; i < bytes.length && shift < 35; i += 1, shift += 7) {
    value += (bytes[i] & 0x7f) * 2 ** shift;
    if (!(bytes[i] & 0x80)) return { value, next: i + 1 };
  }
  return fail('malformed LEB128 size');
}

// [start, end) of the code section's contents.
function codeSection(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d)
    fail('not a WebAssembly binary');
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const { value: size, next } = readU32(bytes, at + 1);
    if (next + size > bytes.length) fail('a section runs past the end of the file');
    if (id === CODE_SECTION) return { start: next, end: next + size };
    at = next + size;
  }
  return fail('no code section');
}

// [start, end) of each function body in the code section, in order.
function functionBodies(bytes, start, end) {
  const { value: count, next } = readU32(bytes, start);
  const bodies = [];
  let at = next;
  for (let i = 0; i < count; i += 1) {
    const { value: size, next: body } = readU32(bytes, at);
    if (body + size > end) fail('a function body runs past the code section');
    bodies.push({ start: body, end: body + size });
    at = body + size;
  }
  return bodies;
}

function findAll(bytes, { start, end }) {
  const found = [];
  for (let i = start; i + 3 <= end; i += 1)
    if (bytes[i] === OLD[0] && bytes[i + 1] === OLD[1] && bytes[i + 2] === OLD[2]) found.push(i);
  return found;
}

const file = process.argv[2];
if (!file) fail('usage: wasm-relaxed-madd.mjs FILE.wasm');
const bytes = new Uint8Array(readFileSync(file));
let perFunction;
try {
  const text = execFileSync('wasm-dis', [file], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  // Defined functions print as "\n (func $name", in code-section order (imports print as "(import").
  perFunction = text.split(/\n \(func /).slice(1).map((f) => (f.match(/\(f32x4\.relaxed_fma\b/g) || []).length);
} catch (err) {
  fail(`wasm-dis could not read ${file} (already renamed?): ${String(err.message).split('\n')[0]}`);
}
const expected = perFunction.reduce((a, n) => a + n, 0);
if (expected === 0) fail(`${file} has no f32x4.relaxed_fma: was gemm_kernel.cpp built with LAB_WASM_RELAXED_MADD?`);
const { start, end } = codeSection(bytes);
const bodies = functionBodies(bytes, start, end);
if (bodies.length !== perFunction.length) fail(`wasm-dis shows ${perFunction.length} functions, the code section holds ${bodies.length}; not renaming`);
let renamed = 0;
bodies.forEach((body, i) => {
  if (!perFunction[i]) return;
  const found = findAll(bytes, body);
  if (found.length !== perFunction[i])
    fail(`function ${i}: found the byte pattern ${found.length} times but wasm-dis sees ${perFunction[i]} instructions; not renaming`);
  for (const at of found) bytes.set(NEW, at);
  renamed += found.length;
});
if (!WebAssembly.validate(bytes))
  fail('the renamed module does not validate (is this Node run with --experimental-wasm-relaxed-simd?)');
writeFileSync(`${file}.tmp`, bytes);
renameSync(`${file}.tmp`, file);
process.stdout.write(`wasm-relaxed-madd: ${file}: ${renamed} fma → f32x4.relaxed_madd\n`);
