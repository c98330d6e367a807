// Act 1's structured reflection: "… ___× because ___." as a fill-in (fill-in.js) with two blanks,
// under the answering rule shared by both acts (scoring.js withTry): answer again as often as you
// like, the first answer is scored, every try is kept by the act.
import { h } from './dom.js';
import { createFillIn } from './fill-in.js';

export function createReflection({ prompt, ratioOptions, reasonOptions, onSubmit }) {
  const fill = createFillIn({
    name: 'act1',
    prompt: h('span', {}, prompt, ' ', h('strong', { text: '___×' }), ' because ', h('strong', { text: '___' }), '.'),
    blanks: [
      { key: 'ratio', legend: 'Blank 1: by about how much?', options: ratioOptions },
      { key: 'reason', legend: 'Blank 2: because…', options: reasonOptions },
    ],
    onSubmit: ({ ratio, reason }) => onSubmit(ratio, reason),
  });
  return {
    el: fill.el,
    // shown: the latest try ({ ratio_choice, reason_choice }) or null; lines: [{ ok, text }]; note:
    // the rule's words after a wrong first answer.
    update(shown, lines, note = null) {
      fill.update(shown ? { ratio: shown.ratio_choice, reason: shown.reason_choice } : null, lines || [], note);
    },
  };
}
