// The structured reflection: a sentence with two blanks, each a native radio group, and feedback on
// both answers in a live region. It can be answered again; the act records every submission.
import { h, uid, replaceChildren } from './dom.js';
import { radioGroup as group } from './fill-in.js';

export function createReflection({ prompt, ratioOptions, reasonOptions, onSubmit }) {
  const ratio = group('Blank 1: by about how much?', ratioOptions, uid('refl-ratio'));
  const reason = group('Blank 2: because…', reasonOptions, uid('refl-reason'));
  const error = h('p', { class: 'field-error', hidden: true, text: 'Answer both blanks first.' });
  const feedback = h('div', { class: 'feedback', role: 'status', 'aria-atomic': 'true' });
  const button = h('button', { type: 'submit', class: 'btn btn--primary', text: 'Check my answer' });
  const form = h('form', { class: 'reflection', novalidate: true },
    h('p', { class: 'reflection__prompt' }, prompt, ' ', h('strong', { text: '___×' }), ' because ', h('strong', { text: '___' }), '.'),
    ratio.el, reason.el, error, button, feedback);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const r = ratio.value();
    const why = reason.value();
    if (!r || !why) { error.hidden = false; (r ? reason : ratio).first().focus(); return; }
    error.hidden = true;
    onSubmit(r, why);
  });

  return {
    el: form,
    // record: the stored reflection or null; lines: [{ ok, text }] feedback to show.
    update(record, lines) {
      if (record) { ratio.set(record.ratio_choice); reason.set(record.reason_choice); }
      // "Check again" invites a retry, so it shows only while an answer is wrong.
      const wrong = record && (lines || []).some((l) => !l.ok);
      button.textContent = wrong ? 'Check again' : 'Check my answer';
      replaceChildren(feedback, (lines || []).map((l) => h('p', { class: `feedback__line feedback__line--${l.ok ? 'ok' : 'wrong'}` },
        h('span', { class: 'feedback__mark', text: l.ok ? '✓ ' : '✕ ' }), l.text)));
    },
  };
}
