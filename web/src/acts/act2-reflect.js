// Act 2, section 8: the two reflections, each scored against the engine when submitted: the most
// effective single fix (timed in act2-numbers.js scoreFixes) and "in the chapter's tuned step,
// checkpointing every 4 layers cuts activations by ___× at ___% extra compute because ___" (the
// engine's ratio and overhead for that one stated scenario, CHAPTER_TUNED2, so the right answer does
// not flip with the settings on screen). Both follow the answering rule (scoring.js withTry): answer
// as often as you like, the first answer is scored, every try is kept. The ledger re-scores them.
import { h, setText, setLocked } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { createFillIn } from '../ui/fill-in.js';
import { nearestByRatio } from '../format/scoring.js';
import { withTry, lastTry, firstAnswerNote } from '../format/scoring.js';
import { CHAPTER_TUNED2 } from '../state/scenario.js';
import { withAct2 } from '../state/store.js';
import { ckptNumbers } from '../models/act2-numbers.js';
import * as T from '../content/act2-text.js';
import { whyDetails } from '../ui/why-details.js';

// fixes: fixedNumbers(...).fixes, the fix question's answer key. lockedHint: what shows until the reveal.
export function createAct2Reflections({ evaluate, store, fixes, lockedHint }) {
  const fix = createFillIn({
    name: 'fix',
    prompt: T.FIX_QUESTION.question,
    blanks: [{ key: 'choice', legend: 'The most effective single fix', options: T.FIX_QUESTION.options }],
    onSubmit: ({ choice }) => {
      const correct = fixes.find((s) => s.id === choice).best;
      store.update((s) => withAct2(s, { reflection_fix: withTry(s.acts.act2.reflection_fix, { choice, correct, answered_at: new Date().toISOString() }) }));
    },
  });
  // The question's one scenario: the chapter's tuned step (its numbers do not depend on the screen).
  const chapter = ckptNumbers(evaluate, CHAPTER_TUNED2);
  const ri = nearestByRatio(T.CKPT_QUESTION.ratioOptions.map((o) => o.value), chapter.ratio);
  const oi = nearestByRatio(T.CKPT_QUESTION.overheadOptions.map((o) => Math.max(o.value, 0.01)), chapter.overhead);
  const ckptNow = h('p', { class: 'panel__note' });
  const ckptFormula = h('p', { class: 'panel__note' });
  const ckptWhy = whyDetails('Why? Other counts', ckptFormula, ckptNow);
  const ckpt = createFillIn({
    name: 'ckpt',
    prompt: `${T.CKPT_QUESTION.intro} ${T.CKPT_QUESTION.prompt} ___× at the cost of ___% extra compute, because ___.`,
    blanks: [
      { key: 'ratio', legend: 'Blank 1: activation memory falls by about', options: T.CKPT_QUESTION.ratioOptions },
      { key: 'overhead', legend: 'Blank 2: extra compute', options: T.CKPT_QUESTION.overheadOptions },
      { key: 'reason', legend: 'Blank 3: because…', options: T.CKPT_QUESTION.reasonOptions },
    ],
    onSubmit: (a) => {
      store.update((s) => withAct2(s, { reflection_ckpt: withTry(s.acts.act2.reflection_ckpt, {
        ratio_choice: a.ratio, overhead_choice: a.overhead, reason_choice: a.reason,
        ratio_correct: a.ratio === T.CKPT_QUESTION.ratioOptions[ri].id, overhead_correct: a.overhead === T.CKPT_QUESTION.overheadOptions[oi].id,
        reason_correct: a.reason === T.CKPT_QUESTION.correctReason, engine_ratio: chapter.ratio, engine_overhead: chapter.overhead,
        answered_at: new Date().toISOString(), scenario: { ...CHAPTER_TUNED2 },
      }) }));
    },
  });
  const body = h('div', {}, fix.el, h('hr'), ckpt.el);
  const reflectPanel = panel('8. Reflect', lockedHint, body);

  return {
    el: reflectPanel.el,
    // The other ways to count, behind the "Why?" of the checkpointing answer: the chapter's formula
    // for the chapter's step, and the numbers for the settings on screen (config2), in the student's units.
    renderNumbers(config2, units) {
      setText(ckptNow, T.ckptScenarioText(ckptNumbers(evaluate, config2), units));
      setText(ckptFormula, T.ckptFormulaText(chapter));
    },
    // The latest answers and their feedback from the store's Act 2 record; locked until the reveal.
    update(a, units) {
      const fr = a.reflection_fix;
      const fl = lastTry(fr);
      fix.update(fl ? { choice: fl.choice } : null, fl ? [{ ok: fl.correct, text: T.fixFeedback(fl.correct, fixes, fl.choice),
        more: whyDetails('Why?', h('p', { text: T.fixWhy(fl.correct, fixes, fl.choice) })) }] : [],
        fr ? firstAnswerNote(fr.correct, fr.attempts || 1) : null);
      const cr = a.reflection_ckpt;
      const cl = lastTry(cr);
      ckpt.update(cl ? { ratio: cl.ratio_choice, overhead: cl.overhead_choice, reason: cl.reason_choice } : null, cl ? [
        { ok: cl.ratio_correct, text: T.ckptRatioFeedback(chapter, units) },
        { ok: cl.overhead_correct, text: T.ckptOverheadFeedback(chapter.overhead) },
        { ok: cl.reason_correct, text: cl.reason_correct ? 'Yes: dropped activations are rebuilt by running the forward pass again during backward.' : 'No: the cost is recomputation. Dropped activations are rebuilt by running the forward pass again during backward.', more: ckptWhy },
      ] : [], cr ? firstAnswerNote(cr.ratio_correct && cr.overhead_correct && cr.reason_correct, cr.attempts || 1) : null);
      setLocked(body, !a.revealed);
      lockedHint.hidden = a.revealed;
    },
  };
}
