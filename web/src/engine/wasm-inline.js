// The WebAssembly modules' bytes when they are inlined into the page. In the hosted builds this returns
// null and each Emscripten glue fetches its .wasm beside it; the single-file build (vite.config.js,
// mode "single") replaces this module with one that holds the .wasm files as base64 text.
export function inlineWasm() {
  return null;
}
