// The workbench: any Transformer on any GPU, one training step predicted. This file is the shell:
// it holds the model and run choices (the store's state.workbench, which the URL follows: see
// workbench-url.js) and hands the scenario they make to the results part (workbench-results.js),
// which asks the engine and draws the answer. A choice the engine refuses is said beside its control
// and never reaches the results: the last scenario that worked stays on screen.
import { h, replaceChildren } from '../ui/dom.js';
import { mountWorkbenchResults } from './workbench-results.js';
import { mountWorkbenchCheck } from './workbench-check.js';
import { createModelForm } from '../ui/workbench-model-form.js';
import { createRunForm } from '../ui/workbench-run-form.js';
import { withWorkbench } from '../state/store.js';
import { useWorkbenchUrl } from '../state/url-state.js';
import * as workbenchUrl from '../state/workbench-url.js';
import {
  supportedFields, specOf, modelFromFields, followDerived, readConfigText, modelFromConfig, configName, modelErrorText, parametersText,
} from '../state/workbench-model.js';
import { PYTORCH_KNOBS, normalizeRun, defaultScenario, runErrorText } from '../state/workbench-run.js';
import './workbench.css';

export const id = 'workbench';
export const title = 'Workbench: your model, your GPU';
export const shortTitle = 'Workbench';

// What this engine reads: the editor's fields, config.json, and the newer PyTorch knobs.
function engineSupport(evaluate, catalog) {
  const baseSpec = specOf(evaluate, catalog.models[0].id);
  const { fields, hfConfig } = supportedFields(evaluate, baseSpec);
  const newer = Object.keys(PYTORCH_KNOBS).filter((k) => PYTORCH_KNOBS[k].newer
    && !evaluate({ framework: 'pytorch', precision: 'autocast_bf16', [k]: PYTORCH_KNOBS[k].values[0] }).error);
  return { fields, hfConfig, newer };
}

// What a new model changes in the run: its context caps the sequence length where positions are
// learned (the engine refuses more), and its layers cap checkpointing every k layers. Said in the run form.
function fitRun(scenario, spec) {
  if (!spec) return { scenario, note: null };
  const s = { ...scenario };
  const notes = [];
  if (spec.learned_positions && s.seq_len > spec.context) {
    s.seq_len = spec.context;
    notes.push(`Sequence length set to ${spec.context}, this model’s context.`);
  }
  if (s.checkpointing && s.checkpointing.every_k_layers > spec.layers) {
    s.checkpointing = { every_k_layers: spec.layers };
    notes.push(`Checkpoints set to every ${spec.layers} layers, this model’s depth.`);
  }
  return { scenario: s, note: notes.join(' ') || null };
}

export function mount(ctx) {
  const { engine, store } = ctx;
  useWorkbenchUrl(workbenchUrl); // the address follows the workbench's choices from now on
  const evaluate = (s) => engine.evaluate(s);
  const catalog = engine.catalog();
  const support = engineSupport(evaluate, catalog);
  const saved = store.getState().workbench;
  let gpuUnit = saved && saved.gpu_unit ? saved.gpu_unit : 'gb';
  let scenario = normalizeRun(saved && saved.scenario ? saved.scenario : defaultScenario(), support.newer).scenario;
  let startNote = null;
  if (evaluate(scenario).error) { // a saved or linked choice this engine refuses: said, then the defaults
    const err = evaluate(scenario).error;
    startNote = `${String(err.field).startsWith('model') ? modelErrorText(err) : runErrorText(err)} The workbench starts from its defaults.`;
    scenario = normalizeRun(defaultScenario(), support.newer).scenario;
  }

  const heading = h('h2', { id: 'act-title', tabindex: '-1', text: title });
  const lead = h('p', { class: 'panel__lead', text: 'One full training step of any Transformer on any GPU: every weight is trained (not LoRA, frozen or 4-bit base weights).' });
  const resultsRoot = h('div', { class: 'workbench__results' });

  // Applies a scenario: refused → the error where it belongs, nothing else changes; else it is shown.
  // from: where a model change came from ('paste', 'editor', 'chooser'), so its error is said there.
  function apply(next, { from = null } = {}) {
    const { scenario: normal, changed } = normalizeRun(next, support.newer);
    const r = evaluate(normal);
    if (r.error) {
      const isModel = String(r.error.field).startsWith('model');
      const text = isModel ? modelErrorText(r.error) : runErrorText(r.error);
      if (isModel || from) modelForm.showError(`${text} The last model that worked is still shown.`, from);
      else runForm.showError(`${runErrorText(r.error)} The results are for the last settings that worked.`);
      return false;
    }
    modelForm.showError('');
    runForm.showError('');
    // What the new way of counting changed (autocast ↔ the chapter's mixed) is said, not done silently.
    runForm.showNote(changed.length ? `Changed: ${changed.join('; ')}.` : '');
    scenario = normal;
    show(r);
    store.update((s) => withWorkbench(s, { scenario, gpu_unit: gpuUnit }));
    return true;
  }
  function show(r) {
    modelForm.set(scenario.model, specOf(evaluate, scenario.model), parametersText(r.model.parameters));
    runForm.set(scenario, gpuUnit);
    results.show(scenario);
    check.show(scenario);
  }
  // A new model: its context may cap the sequence length (said in the run form).
  function applyModel(model, from) {
    const spec = specOf(evaluate, model);
    const fitted = fitRun({ ...scenario, model }, spec);
    if (apply(fitted.scenario, { from }) && fitted.note) runForm.showNote(fitted.note);
  }

  const modelForm = createModelForm({
    models: catalog.models, fields: support.fields, hfConfig: support.hfConfig,
    onPreset: (presetId) => applyModel(presetId, 'chooser'),
    onEdit: (values) => {
      const name = typeof scenario.model === 'object' && scenario.model.name ? scenario.model.name : null;
      const made = modelFromFields(support.fields, followDerived(specOf(evaluate, scenario.model), values), name);
      if (made.error) modelForm.showError(`${modelErrorText(made.error)} The last model that worked is still shown.`, 'editor');
      else applyModel(made.model, 'editor');
    },
    onConfig: (text) => {
      const read = readConfigText(text);
      if (read.error) { modelForm.showError(`${read.error} The last model that worked is still shown.`, 'paste'); return; }
      const asked = modelFromConfig(read.config);
      const spec = specOf(evaluate, asked);
      // Refused: the engine's reason (the pasted text stays in its box). Accepted: the engine's spec
      // fields become the model, so the URL carries fields, not the config's JSON.
      if (!spec) { apply({ ...scenario, model: asked }, { from: 'paste' }); return; }
      const fields = { ...spec };
      delete fields.name; // a nameless paste is "Your model", not the engine's placeholder name
      const name = configName(read.config);
      applyModel(name ? { ...fields, name } : fields, 'paste');
    },
  });
  const runForm = createRunForm({
    devices: catalog.devices, newer: support.newer,
    onChange: (patch) => apply({ ...scenario, ...patch }),
    onUnit: (unit) => { gpuUnit = unit; store.update((s) => withWorkbench(s, { gpu_unit: unit })); },
  });
  const startError = startNote ? h('p', { class: 'field-error', role: 'alert', text: startNote }) : null;
  replaceChildren(ctx.root, h('section', { class: 'act act--workbench', 'aria-labelledby': 'act-title', 'data-act': 'workbench' },
    heading, lead, startError, h('div', { class: 'wb-choices' }, modelForm.el, runForm.el), resultsRoot));
  const results = mountWorkbenchResults(resultsRoot, { engine, store });
  const check = mountWorkbenchCheck(resultsRoot, { engine, store }); // "Check it on your GPU" (issue 27), after the results
  show(evaluate(scenario));
  store.update((s) => withWorkbench(s, { scenario, gpu_unit: gpuUnit }));
  return { focus: () => heading.focus(), destroy: () => { results.destroy(); check.destroy(); ctx.root.replaceChildren(); } };
}
