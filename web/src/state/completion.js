// When an act counts as complete, DOM-free: the acts (acts/act1.js, acts/act2.js) record it with
// these functions, and the ledger check (ledger-derived.js) and `labctl verify` derive it again from
// the record, so a `completed` flag edited into a ledger disagrees and is refused.

// Act 1 is complete once its reflection is answered (it follows the prediction and the reveal).
export function act1Complete(a1) {
  return Boolean(a1 && a1.reflection);
}

// Act 2: revealed, the tuned regime reached (unless the lab did not ask for it: `asked` false, which
// the record keeps as design.not_asked), the laptop challenge finished and both questions answered.
export function act2Complete(a2, { asked = !(a2 && a2.design && a2.design.not_asked) } = {}) {
  return Boolean(a2 && a2.revealed && (a2.design.regime_reached || !asked) && a2.laptop.finished && a2.reflection_fix && a2.reflection_ckpt);
}

// Act 3: the prediction locked, the reveal seen and both questions answered.
export function act3Complete(a3) {
  return Boolean(a3 && a3.prediction && a3.revealed && a3.reflection_dp && a3.reflection_ceiling);
}

// How many acts a lab state (store.js shape) has completed, derived as above, never read from the flags.
export const ACT_COUNT = 3;
export function completedActs(state) {
  const acts = state && state.acts ? state.acts : {};
  return Number(act1Complete(acts.act1)) + Number(act2Complete(acts.act2)) + Number(act3Complete(acts.act3));
}
