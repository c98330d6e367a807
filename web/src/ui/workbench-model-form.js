// The workbench's model chooser: catalogue presets grouped by family, a config.json pasted or
// opened, and an editor of every field the engine reads. It reports what the student asks for
// (onPreset, onModel) and shows what the shell decides (set, showError); it computes nothing.
// Pure parts: ../workbench-model.js. The shell: ../acts/workbench.js.
import { h, uid, setText, setHidden } from './dom.js';
import { presetGroups, readConfigText, MAX_CONFIG_BYTES, CONFIG_LIMIT_WORDS } from '../state/workbench-model.js';
import { formatSmallBytes } from '../format/format.js';

const CUSTOM = 'custom';

function fieldInput(f, onEdit) {
  const id = uid(`wb-${f.key}`);
  let input;
  if (f.kind === 'bool') input = h('input', { type: 'checkbox', id, onchange: onEdit });
  else if (f.kind === 'int') {
    input = h('input', { type: 'text', id, inputmode: 'numeric', autocomplete: 'off', size: 8, oninput: onEdit,
      placeholder: f.optional ? 'none' : null });
  } else input = h('select', { id, onchange: onEdit }, f.kind.map((v) => h('option', { value: String(v), text: (f.words && f.words[v]) || String(v) })));
  const label = h('label', { for: id, text: f.label });
  const row = f.kind === 'bool' ? h('div', { class: 'wb-field wb-field--bool' }, input, label) : h('div', { class: 'wb-field' }, label, input);
  return { f, input, row };
}

// models: catalog().models; fields: the editor's fields (supportedFields); hfConfig: whether the engine
// reads config.json. onPreset(id); onModel({ values, name }) for the editor; onConfig(text) for a paste.
export function createModelForm({ models, fields, hfConfig, onPreset, onEdit, onConfig }) {
  const selectId = uid('wb-model');
  const customOption = h('option', { value: CUSTOM, text: 'Your model', hidden: true });
  const select = h('select', { id: selectId, 'data-control': 'model', onchange: () => { if (select.value !== CUSTOM) onPreset(select.value); } },
    presetGroups(models).map((g) => h('optgroup', { label: g.family }, g.models.map((m) => h('option', { value: m.id, text: m.name })))),
    customOption);
  const params = h('p', { class: 'wb-params', 'data-testid': 'wb-parameters', 'aria-live': 'polite' });
  const error = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'wb-model-error', hidden: true });

  // Paste a config.json (or open one): read only when asked, and the text stays in the box.
  const pasteId = uid('wb-paste');
  const fileId = uid('wb-file');
  const paste = h('textarea', { id: pasteId, rows: 6, spellcheck: 'false', autocomplete: 'off', class: 'wb-paste', 'data-testid': 'wb-paste' });
  const use = h('button', { type: 'button', class: 'btn btn--small', text: 'Use this config', onclick: () => onConfig(paste.value) });
  const file = h('input', { type: 'file', id: fileId, accept: '.json,application/json', onchange: () => openFile() });
  async function openFile() {
    const chosen = file.files && file.files[0];
    file.value = '';
    if (!chosen) return;
    if (chosen.size > MAX_CONFIG_BYTES) {
      showError(`${chosen.name} is ${formatSmallBytes(chosen.size)}, ${CONFIG_LIMIT_WORDS}, so it was not opened.`, 'paste');
      return;
    }
    paste.value = await chosen.text();
    onConfig(paste.value);
  }
  const pasteBox = h('details', { class: 'wb-more', 'data-testid': 'wb-paste-box' },
    h('summary', { text: hfConfig ? 'Paste a config.json' : 'Paste a model' }),
    h('label', { for: pasteId, text: hfConfig ? 'A Hugging Face config.json, or the lab’s model object' : 'The lab’s model object (JSON)' }), paste,
    h('div', { class: 'wb-row' }, use, h('label', { for: fileId, text: 'or open a file:' }), file));

  // Every field, filled from the model on screen; an edit makes it "Your model".
  const inputs = fields.map((f) => fieldInput(f, () => onEdit(values())));
  const editor = h('details', { class: 'wb-more', 'data-testid': 'wb-editor' }, h('summary', { text: 'Edit every field' }),
    h('div', { class: 'wb-fields' }, inputs.map((i) => i.row)));
  const values = () => Object.fromEntries(inputs.map(({ f, input }) => [f.key, f.kind === 'bool' ? input.checked : input.value]));

  // where: 'paste' or 'editor' puts the message inside that box, under what the student was doing;
  // otherwise it sits under the chooser.
  function showError(text, where = null) {
    const home = where === 'paste' ? pasteBox : where === 'editor' ? editor : chooser;
    if (text && error.parentNode !== home) home.append(error);
    setText(error, text || '');
    setHidden(error, !text);
  }
  // model: the id or object on screen; spec: its full field values; parameters: the exact count text.
  function set(model, spec, paramsText) {
    const custom = typeof model !== 'string';
    setHidden(customOption, !custom);
    if (custom) customOption.textContent = model.name ? `Your model: ${model.name}` : 'Your model';
    select.value = custom ? CUSTOM : model;
    setText(params, paramsText);
    if (!spec) return;
    for (const { f, input } of inputs) {
      if (input === input.getRootNode().activeElement) continue; // never rewrite what the student is typing (in a shadow root too)
      const v = spec[f.key];
      if (f.kind === 'bool') input.checked = Boolean(v);
      else input.value = v === undefined || v === null ? '' : String(v);
    }
  }
  const chooser = h('div', {}, h('div', { class: 'wb-row' }, h('label', { for: selectId, class: 'visually-hidden', text: 'Model' }), select, params), error);
  const el = h('fieldset', { class: 'wb-section', 'data-section': 'model' }, h('legend', { text: 'Model' }), chooser, pasteBox, editor);
  return { el, set, showError, pasteText: () => paste.value };
}
