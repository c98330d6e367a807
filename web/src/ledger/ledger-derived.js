// Flags a design ledger records that the rest of its record decides, derived again, DOM-free
// (checkLedger in ledger-check.js runs it after verify_ledger; issue 24: a `completed` or
// `regime_reached` set by hand verified "ok"). Each becomes a row like the engine's ({field, label,
// recorded, recomputed, differs}) through `row`; what cannot be derived goes to `skip` with the reason.
import { act1Complete, act2Complete } from '../state/completion.js';
import { regimeReachedAt } from '../models/act2-model.js';
import { toScenario2 } from '../state/scenario.js';
import { decisionsOf } from './design-ledger.js';

// Whether settings (config2 shape) reach the tuned regime, by the engine; null when it cannot say.
function regimeAt(engine, config) {
  if (!engine || typeof engine.evaluate !== 'function' || !config || typeof config !== 'object') return null;
  try {
    const raw = engine.evaluate(toScenario2(config));
    const r = typeof raw === 'string' ? JSON.parse(raw) : raw;
    return r && !r.error ? regimeReachedAt(config, r) : null;
  } catch { return null; }
}

// The tuned regime counts only in a design the student reached (act2-model.js designRecord), so a
// regime reached without a best design is not possible; the settings that reached it (regime_config,
// kept since issue 24) or a best design inside the regime re-compute it. A best design inside the
// regime with `regime_reached` false disagrees too: the page records both from the same settings.
function regimeRow(design, engine, row, skip) {
  const p = 'lab_state.acts.act2.design.regime_reached';
  const bestIn = design.best ? regimeAt(engine, design.best.config) : false;
  const keptIn = design.regime_config ? regimeAt(engine, design.regime_config) : null;
  if (bestIn === null || (design.regime_config && keptIn === null)) {
    skip(p, 'whether the tuned regime was reached is re-computed with the engine’s evaluate, which this check was not given');
    return;
  }
  if (!design.regime_reached) { row(p, false, Boolean(bestIn || keptIn)); return; }
  if (!design.best || design.regime_config || bestIn) { row(p, true, Boolean(design.best && (keptIn || bestIn))); return; }
  skip(p, 'recorded before the lab kept the settings that reached the tuned regime, and the best design is outside it: cannot be re-computed');
}

// A decision's part that follows from the saved progress (its wording may come from an older lab).
const decisionCore = (list) => (Array.isArray(list) ? list.map((d) => ({ id: d.id, kind: d.kind, config: d.config })) : list);

export function derivedRows(ledger, engine, row, skip) {
  const st = ledger.lab_state;
  const a1 = st.acts.act1;
  const a2 = st.acts.act2;
  row('lab_state.acts.act1.completed', a1.completed, act1Complete(a1));
  if (!a2) return;
  row('lab_state.acts.act2.completed', a2.completed, act2Complete(a2));
  regimeRow(a2.design, engine, row, skip);
  // The page records the laptop floor whenever it finishes the challenge (at the floor, or "give up").
  if (a2.laptop.finished) row('lab_state.acts.act2.laptop.finished', true, a2.laptop.floor_bytes !== null);
  row('decisions', decisionCore(ledger.decisions), decisionCore(decisionsOf(st)));
}
