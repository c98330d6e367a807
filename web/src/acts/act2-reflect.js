// Act 2, section 8: the two reflections, each scored against the engine when submitted: the most
// effective single fix (timed in act2-numbers.js scoreFixes) and "checkpointing every k layers cuts
// activations by ___× at ___% extra compute because ___" (the engine's ratio and overhead for the
// settings on screen). The answers live in the store; the ledger re-scores them the same way.
import { h, setText, setLocked } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { createFillIn } from '../ui/fill-in.js';
import { nearestByRatio } from '../act2-model.js';
import { withAct2 } from '../store.js';
import { ckptNumbers } from './act2-numbers.js';
import * as T from './act2-text.js';

// fixes: fixedNumbers(...).fixes, the fix question's answer key. lockedHint: what shows until the reveal.
export function createAct2Reflections({ evaluate, store, fixes, lockedHint }) {
  const fix = createFillIn({
    name: 'fix',
    prompt: T.FIX_QUESTION.question,
    blanks: [{ key: 'choice', legend: 'The most effective single fix', options: T.FIX_QUESTION.options }],
    onSubmit: ({ choice }) => {
      const correct = fixes.find((s) => s.id === choice).best;
      store.update((s) => withAct2(s, { reflection_fix: { choice, correct, answered_at: new Date().toISOString() } }));
    },
  });
  const ckptNow = h('p', { class: 'panel__note' });
  const ckptFormula = h('p', { class: 'panel__note' });
  const ckpt = createFillIn({
    name: 'ckpt',
    prompt: `${T.CKPT_QUESTION.intro} ${T.CKPT_QUESTION.prompt} ___× at the cost of ___% extra compute, because ___.`,
    blanks: [
      { key: 'ratio', legend: 'Blank 1: activation memory falls by about', options: T.CKPT_QUESTION.ratioOptions },
      { key: 'overhead', legend: 'Blank 2: extra compute', options: T.CKPT_QUESTION.overheadOptions },
      { key: 'reason', legend: 'Blank 3: because…', options: T.CKPT_QUESTION.reasonOptions },
    ],
    onSubmit: (a) => {
      const config2 = store.getState().config2;
      const c = ckptNumbers(evaluate, config2);
      const ri = nearestByRatio(T.CKPT_QUESTION.ratioOptions.map((o) => o.value), c.ratio);
      const oi = nearestByRatio(T.CKPT_QUESTION.overheadOptions.map((o) => Math.max(o.value, 0.01)), c.overhead);
      store.update((s) => withAct2(s, { reflection_ckpt: {
        ratio_choice: a.ratio, overhead_choice: a.overhead, reason_choice: a.reason,
        ratio_correct: a.ratio === T.CKPT_QUESTION.ratioOptions[ri].id, overhead_correct: a.overhead === T.CKPT_QUESTION.overheadOptions[oi].id,
        reason_correct: a.reason === T.CKPT_QUESTION.correctReason, engine_ratio: c.ratio, engine_overhead: c.overhead,
        answered_at: new Date().toISOString(), scenario: { ...config2 },
      } }));
    },
  });
  const body = h('div', {}, fix.el, h('hr'), ckpt.el, ckptNow, ckptFormula);
  const reflectPanel = panel('8. Reflect', lockedHint, body);

  return {
    el: reflectPanel.el,
    // The checkpointing numbers for the settings on screen (config2), in the student's units.
    renderNumbers(config2, units) {
      const cn = ckptNumbers(evaluate, config2);
      setText(ckptNow, T.ckptScenarioText(cn, units));
      setText(ckptFormula, T.ckptFormulaText(cn));
    },
    // Answers and their feedback from the store's Act 2 record; locked until the reveal.
    update(a) {
      const fr = a.reflection_fix;
      fix.update(fr ? { choice: fr.choice } : null, fr ? [{ ok: fr.correct, text: T.fixFeedback(fr.correct, fixes, fr.choice) }] : []);
      const cr = a.reflection_ckpt;
      ckptNow.hidden = !cr;
      ckptFormula.hidden = !cr;
      ckpt.update(cr ? { ratio: cr.ratio_choice, overhead: cr.overhead_choice, reason: cr.reason_choice } : null, cr ? [
        { ok: cr.ratio_correct, text: T.ckptRatioFeedback(cr.engine_ratio) },
        { ok: cr.overhead_correct, text: T.ckptOverheadFeedback(cr.engine_overhead) },
        { ok: cr.reason_correct, text: cr.reason_correct ? 'Yes: dropped activations are rebuilt by running the forward pass again during backward.' : 'No: the cost is recomputation. Dropped activations are rebuilt by running the forward pass again during backward.' },
      ] : []);
      setLocked(body, !a.revealed);
      lockedHint.hidden = a.revealed;
    },
  };
}
