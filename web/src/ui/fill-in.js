// Questions with one or more blanks, each a native radio group in a fieldset, checked on submit, with
// feedback lines in a live region. Used by both acts' reflections, under one answering rule
// (scoring.js withTry): answer as often as you like, the first answer is scored, every try is kept.
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
  // The rule, said before answering: the same words in every question of both acts.
  const once = h('p', { class: 'reflection__once', text: 'Your first answer is the one scored; you may answer again.' });
  const feedback = h('div', { class: 'feedback', role: 'status', 'aria-atomic': 'true', tabindex: '-1' });
  // The details behind an answer's "Why?": outside the live region, so only the feedback is announced.
  const more = h('div', { class: 'feedback__more' });
  const form = h('form', { class: 'reflection', novalidate: true, 'data-question': name },
    prompt ? h('p', { class: 'reflection__prompt' }, prompt) : null,
    groups.map((x) => x.g.el), error, once, submit, feedback, more);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const answers = Object.fromEntries(groups.map((x) => [x.key, x.g.value()]));
    const missing = groups.find((x) => !answers[x.key]);
    if (missing) { error.hidden = false; missing.g.first().focus(); return; }
    error.hidden = true;
    onSubmit(answers);
  });
  return {
    el: form,
    // answers: the latest try's { key: choiceId } or null; lines: [{ ok, text, more? }] its feedback
    // (more: a node shown behind the line, e.g. a "Why?" disclosure); note: the rule's words after a
    // wrong first answer (scoring.js firstAnswerNote), or null.
    update(answers, lines, note = null) {
      if (answers) for (const x of groups) x.g.set(answers[x.key]);
      // "Check again" invites a retry, so it shows only while the latest answer is wrong.
      submit.textContent = answers && lines.some((l) => !l.ok) ? 'Check again' : button;
      once.hidden = Boolean(answers);
      replaceChildren(feedback, [...lines.map((l) => h('p', { class: `feedback__line feedback__line--${l.ok ? 'ok' : 'wrong'}` },
        h('span', { class: 'feedback__mark', text: l.ok ? '✓ ' : '✕ ' }), l.text)),
      note ? h('p', { class: 'feedback__rule', text: note }) : null]);
      replaceChildren(more, lines.map((l) => l.more || null).filter(Boolean));
    },
  };
}
