// The workbench: any Transformer on any GPU, one training step predicted. This file is the shell:
// it holds the model and run choices (and their URL state) and hands the scenario they make to the
// results part (workbench-results.js), which asks the engine and draws the answer.
import { h, replaceChildren } from '../ui/dom.js';
import { mountWorkbenchResults } from './workbench-results.js';

export const id = 'workbench';
export const title = 'Workbench: your model, your GPU';
export const shortTitle = 'Workbench';

// Until the model and run choices exist: one fixed scenario, so the results part can be built.
const SKELETON_SCENARIO = {
  model: 'gpt2-small', device: 'rtx4090-24gb', precision: 'autocast_bf16', optimizer: 'adam',
  batch_size: 8, seq_len: 1024, framework: 'pytorch',
};

export function mount(ctx) {
  const heading = h('h2', { id: 'act-title', tabindex: '-1', text: title });
  const resultsRoot = h('div', { class: 'workbench__results' });
  replaceChildren(ctx.root, h('section', { class: 'act act--workbench', 'aria-labelledby': 'act-title', 'data-act': 'workbench' },
    heading, resultsRoot));
  const results = mountWorkbenchResults(resultsRoot, { engine: ctx.engine, store: ctx.store });
  results.show(SKELETON_SCENARIO);
  return { focus: () => heading.focus(), destroy: () => { results.destroy(); ctx.root.replaceChildren(); } };
}
