// The engine adapter: the only module that imports the generated WASM module. Every call copies its
// result out as plain JSON immediately (no views into WASM memory survive a call). Results are cached
// by scenario text and shared: callers must treat them as read-only. Errors from the facade come back
// as values ({ error: { field, message } }), never as exceptions.
import createLabCore from '@engine/lab_core.mjs';

let modulePromise = null;
const CACHE_LIMIT = 256;

export function loadEngine(options = {}) {
  if (!modulePromise) {
    modulePromise = createLabCore(options).catch((err) => {
      modulePromise = null;
      throw err;
    });
  }
  return modulePromise.then((m) => makeEngine(m));
}

// The module returns a byte view of its result buffer (valid until the next call): decode it now.
const decoder = new TextDecoder();

function call(mod, name, request) {
  const text = typeof request === 'string' ? request : JSON.stringify(request);
  return JSON.parse(decoder.decode(mod[name](text)));
}

function makeEngine(mod) {
  const cache = new Map();
  let catalog = null;
  const evaluate = (scenario) => {
    const key = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
    let hit = cache.get(key);
    if (!hit) {
      hit = call(mod, 'evaluate', key);
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value);
      cache.set(key, hit);
    }
    return hit;
  };
  return {
    version: () => mod.version(),
    catalog: () => (catalog ||= JSON.parse(decoder.decode(mod.catalog()))),
    evaluate,
    has: (name) => typeof mod[name] === 'function',
    call: (name, request) => call(mod, name, request),
  };
}
