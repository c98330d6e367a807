// Questions with one or more blanks, each a native radio group in a fieldset, checked on submit, with
// feedback lines in a live region. Used by Act 2's reflections (the act records every answer).
import { h, uid, replaceChildren } from './dom.js';

// A fieldset of native radios for one blank (shared with reflection.js).
export function radioGroup(legend, options, name) {
  const inputs = options.map((o) => {
    const id = uid(`${name}-${o.id}`);
    const input = h('input', { type: 'radio', name, id, value: o.id });
    return { input, el: h('div', { class: 'radio', 'data-option': o.id }, input, h('label', { for: id, text: o.label })) };
  });
  return {
    el: h('fieldset', {}, h('legend', { text: legend }), inputs.map((i) => i.el)),
    value: () => (inputs.find((i) => i.input.checked) || { input: {} }).input.value || null,
    set: (v) => { for (const i of inputs) i.input.checked = i.input.value === v; },
    first: () => inputs[0].input,
  };
}

// blanks: [{ key, legend, options: [{ id, label }] }]; onSubmit({ key: choiceId, ... }).
export function createFillIn({ name = null, prompt, blanks, onSubmit, button = 'Check my answer' }) {
  const groups = blanks.map((b) => ({ key: b.key, g: radioGroup(b.legend, b.options, uid(`fill-${b.key}`)) }));
  const submit = h('button', { type: 'submit', class: 'btn btn--primary', text: button });
  const error = h('p', { class: 'field-error', hidden: true, text: blanks.length > 1 ? 'Answer every blank first.' : 'Choose an answer first.' });
  // Said before answering, since Act 1's reflection can be answered again and this one cannot.
  const once = h('p', { class: 'reflection__once', text: 'One try: your first answer is the one recorded, and the feedback then names the right one.' });
  const feedback = h('div', { class: 'feedback', role: 'status', 'aria-atomic': 'true', tabindex: '-1' });
  const form = h('form', { class: 'reflection', novalidate: true, 'data-question': name },
    prompt ? h('p', { class: 'reflection__prompt' }, prompt) : null,
    groups.map((x) => x.g.el), error, once, submit, feedback);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const answers = Object.fromEntries(groups.map((x) => [x.key, x.g.value()]));
    const missing = groups.find((x) => !answers[x.key]);
    if (missing) { error.hidden = false; missing.g.first().focus(); return; }
    error.hidden = true;
    onSubmit(answers);
    // A recorded answer hides the button and disables the radios: focus would fall to the page,
    // so it moves to the feedback it produced.
    if (!form.contains(document.activeElement) || submit.hidden) feedback.focus();
  });
  return {
    el: form,
    // answers: the recorded { key: choiceId } or null; lines: [{ ok, text }]. A recorded answer is
    // final: the feedback names the right one, so answering again would score nothing.
    update(answers, lines) {
      if (answers) for (const x of groups) x.g.set(answers[x.key]);
      for (const input of form.querySelectorAll('input')) input.disabled = Boolean(answers);
      submit.hidden = Boolean(answers);
      once.hidden = Boolean(answers);
      replaceChildren(feedback, lines.map((l) => h('p', { class: `feedback__line feedback__line--${l.ok ? 'ok' : 'wrong'}` },
        h('span', { class: 'feedback__mark', text: l.ok ? '✓ ' : '✕ ' }), l.text)));
    },
  };
}
