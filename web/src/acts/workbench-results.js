// The workbench's results: what the engine predicts for one training step of the scenario the shell
// (workbench.js) gives. show(scenario) recomputes and redraws; destroy() removes it.
import { h, replaceChildren } from '../ui/dom.js';
import { formatInt } from '../format.js';

export function mountWorkbenchResults(root, { engine }) {
  const out = h('p', { class: 'workbench__peak', role: 'status' });
  replaceChildren(root, out);
  return {
    show(scenario) {
      const r = engine.evaluate(scenario);
      out.textContent = r.error ? `Cannot compute: ${r.error.message}` : `Peak: ${formatInt(r.memory.peak_bytes)} bytes`;
    },
    destroy() { root.replaceChildren(); },
  };
}
