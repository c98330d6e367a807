// The prediction lock: a multiple-choice question that must be answered before the act's instruments
// unlock. Native radios in a fieldset; the answer is locked once submitted (the act records it).
import { h, uid, setText } from './dom.js';

export function createPrediction({ question, options, onLock, unlocks = 'The ledger below is now open.' }) {
  const name = uid('prediction');
  const errorId = uid('prediction-error');
  const error = h('p', { class: 'field-error', id: errorId, hidden: true, text: 'Choose one of the four answers first.' });
  const labels = new Map();
  const radios = options.map((o, i) => {
    const id = uid(`${name}-${o.id}`);
    const input = h('input', { type: 'radio', name, id, value: o.id, 'aria-describedby': errorId });
    const label = h('label', { for: id }, h('span', { class: 'option-letter', text: `${String.fromCharCode(65 + i)}.` }), ' ', h('span', { class: 'option-text' }));
    labels.set(o.id, label.querySelector('.option-text'));
    return { input, el: h('div', { class: 'radio radio--option', 'data-option': o.id }, input, label) };
  });
  const button = h('button', { type: 'submit', class: 'btn btn--primary', text: 'Lock in my prediction' });
  const lockedNote = h('p', { class: 'locked-note', hidden: true });
  const form = h('form', { class: 'prediction', novalidate: true },
    h('fieldset', {}, h('legend', { class: 'prediction__question', text: question }), radios.map((r) => r.el)),
    error, button, lockedNote);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const picked = radios.find((r) => r.input.checked);
    if (!picked) { error.hidden = false; radios[0].input.focus(); return; }
    error.hidden = true;
    onLock(picked.input.value);
  });

  return {
    el: form,
    // labelsById: option id -> text; recorded: the locked answer's id (or null).
    update(labelsById, recorded) {
      for (const [id, el] of labels) setText(el, labelsById[id]);
      const locked = Boolean(recorded);
      for (const r of radios) {
        r.input.disabled = locked;
        if (locked) r.input.checked = r.input.value === recorded;
        r.el.classList.toggle('radio--chosen', locked && r.input.value === recorded);
      }
      button.hidden = locked;
      lockedNote.hidden = !locked;
      if (locked) {
        const i = options.findIndex((o) => o.id === recorded);
        setText(lockedNote, `Locked in: ${String.fromCharCode(65 + i)}. ${unlocks}`);
      }
    },
  };
}
