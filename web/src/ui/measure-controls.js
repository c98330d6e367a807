// The "Measure it" panel's settings: native radio groups and selects, each labelled and operable
// from the keyboard. Values stay local to the panel (not in the store or the URL); every change is
// reported as a patch { key: value } with the value in the engine's vocabulary.
import { h, uid } from './dom.js';
import { CHOICES, LABELS } from '../models/measure-model.js';

export function radioControl(key, legend, values, labels, current, onPick) {
  const name = uid(`m-${key}`);
  return h('fieldset', { class: 'control control--radios', 'data-control': key },
    h('legend', { text: legend }),
    values.map((v) => {
      const id = uid(`${name}-${v}`);
      const input = h('input', { type: 'radio', id, name, value: v, checked: v === current, onchange: () => input.checked && onPick(v) });
      return h('div', { class: 'radio' }, input, h('label', { for: id, text: labels[v] }));
    }));
}

// values are numbers or strings; text(v) is the option's words.
export function selectControl(key, label, values, text, current, onPick, note = null) {
  const id = uid(`m-${key}`);
  const noteEl = note ? h('p', { class: 'control__note', id: uid(`m-${key}-note`), text: note }) : null;
  const select = h('select', { id, 'aria-describedby': noteEl ? noteEl.id : null, onchange: () => onPick(values[select.selectedIndex]) },
    values.map((v) => h('option', { value: String(v), text: text(v), selected: v === current })));
  return h('div', { class: 'control', 'data-control': key }, h('label', { for: id, text: label }), select, noteEl);
}

const lr = (v) => String(v);

export function createMeasureControls({ settings, onChange }) {
  const pick = (key) => (v) => onChange({ [key]: v });
  return h('div', { class: 'controls controls--measure' },
    radioControl('precision', 'Precision', CHOICES.precision, LABELS.precision, settings.precision, pick('precision')),
    radioControl('optimizer', 'Optimizer', CHOICES.optimizer, LABELS.optimizer, settings.optimizer, pick('optimizer')),
    h('div', { class: 'control-stack' },
      selectControl('checkpointing', 'Activation checkpointing', CHOICES.checkpointing, (v) => LABELS.checkpointing[v], settings.checkpointing, pick('checkpointing')),
      selectControl('learning_rate', 'Learning rate', CHOICES.learning_rate, lr, settings.learning_rate, pick('learning_rate'))),
    h('div', { class: 'control-stack' },
      selectControl('batch_size', 'Batch size (sequences per step)', CHOICES.batch_size, String, settings.batch_size, pick('batch_size')),
      selectControl('seq_len', 'Sequence length (tokens)', CHOICES.seq_len, String, settings.seq_len, pick('seq_len')),
      selectControl('steps', 'Training steps', CHOICES.steps, String, settings.steps, pick('steps'))));
}
