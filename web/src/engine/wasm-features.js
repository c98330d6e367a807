// Which optional WebAssembly features this engine (browser or Node) accepts, asked the standard way:
// WebAssembly.validate on the smallest module that uses the feature (no network, no instantiation).
//
// relaxed SIMD: a function () -> v128 whose body is three v128.const 0 and f32x4.relaxed_madd
// (opcode 0xfd 0x85 0x02). The "Measure it" worker loads the fused-multiply-add training module
// (lab_train_fma) only where this is true, and the plain one otherwise.
const RELAXED_MADD_MODULE = (() => {
  const zeros = new Array(16).fill(0);
  const v128Const = [0xfd, 0x0c, ...zeros];
  const body = [0x00, ...v128Const, ...v128Const, ...v128Const, 0xfd, 0x85, 0x02, 0x0b];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, //        type section: one func type () -> v128
    0x03, 0x02, 0x01, 0x00, //                          function section: one function of type 0
    0x0a, body.length + 2, 0x01, body.length, ...body, // code section: one body
  ]);
})();

export function relaxedSimdSupported(wasm = globalThis.WebAssembly) {
  try {
    return Boolean(wasm && wasm.validate(RELAXED_MADD_MODULE));
  } catch {
    return false;
  }
}
