// The engine adapter: the only module that imports the generated WASM module. Every call copies its
// result out as plain JSON immediately (no views into WASM memory survive a call).
import createLabCore from '@engine/lab_core.mjs';

let modulePromise = null;

export function loadEngine() {
  if (!modulePromise) modulePromise = createLabCore();
  return modulePromise.then((m) => makeEngine(m));
}

function call(mod, name, request) {
  const text = typeof request === 'string' ? request : JSON.stringify(request);
  return JSON.parse(mod[name](text));
}

function makeEngine(mod) {
  return {
    version: () => mod.version(),
    catalog: () => JSON.parse(mod.catalog()),
    evaluate: (scenario) => call(mod, 'evaluate', scenario),
    has: (name) => typeof mod[name] === 'function',
    call: (name, request) => call(mod, name, request),
  };
}
