// Parts every act and panel builds the same way: a numbered panel (a section named by its focusable
// heading) and the progress list of an act's steps with a visible mark and words for screen readers.
import { h, uid, replaceChildren } from './dom.js';

export function panel(headingText, ...children) {
  const headingId = uid('h');
  const heading = h('h3', { id: headingId, tabindex: '-1', text: headingText });
  return { heading, el: h('section', { class: 'panel', 'aria-labelledby': headingId }, heading, ...children) };
}

// steps: [{ id, label, done(record) }]; record: the act's part of the store.
// skipped: { step id: why it is not asked here } for steps this lab does not ask for (an instructor's
// locks): they stay in the list, so its numbers run on, with that note.
export function renderSteps(list, steps, record, skipped = {}) {
  replaceChildren(list, steps.map((s, i) => {
    const isDone = s.done(record);
    const isSkipped = !isDone && s.id in skipped;
    return h('li', { class: isDone ? 'step step--done' : isSkipped ? 'step step--skipped' : 'step', 'data-step': s.id },
      h('span', { class: 'step__mark', 'aria-hidden': 'true', text: isDone ? '✓' : String(s.section || i + 1) }), ` ${s.label}`,
      isSkipped ? h('span', { class: 'step__note', text: ` (${skipped[s.id]})` }) : null,
      h('span', { class: 'visually-hidden', text: isDone ? ' (done)' : isSkipped ? '' : ' (to do)' }));
  }));
}
