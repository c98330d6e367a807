// Placeholder entry: loads the engine and shows one computed number (replaced by the Act 1 app).
import { loadEngine } from './engine.js';

const status = document.getElementById('status');
loadEngine()
  .then((engine) => {
    const r = engine.evaluate({ model: 'gpt2-xl', precision: 'fp32', optimizer: 'adam' });
    status.textContent = `Engine ${engine.version()} ready: GPT-2 XL FP32 Adam static memory = ${(r.memory.static_bytes / 1e9).toFixed(2)} GB`;
  })
  .catch((err) => { status.textContent = `The engine could not start: ${err.message}`; });
