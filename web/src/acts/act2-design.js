// Act 2's section 6, the design challenge: reach the chapter's tuned regime, then the fastest step
// (tokens/s; MFU beside it, named against its peak). It records the student's fastest design in the store (act2-model.js designRecord), says whether the
// regime is in reach of the controls an instructor left open (act2-best.js regimeSearch, run once in
// idle time by act2-search.js), and sets the best the act's controls and the engine's solver reach
// beside it. Words from act2-text.js; the act (act2.js) renders it after each paint.
import { h, setText, replaceChildren } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { LABELS, BATCH_SIZES2 } from '../state/scenario.js';
import { regimeReachedAt, designCounts, designRecord, REGIME } from '../models/act2-model.js';
import { formatBytes, formatCount } from '../format/format.js';
import { withAct2 } from '../state/store.js';
import * as T from '../content/act2-text.js';
import { whyDetails } from '../ui/why-details.js';

// open: the controls left open (a Set); allOpen: whether that is every control of the act.
export function createDesignPanel({ evaluate, store, search, devices, arrival, nothingToExplore, open, allOpen }) {
  // The panel's state and elements, passed to the named parts below.
  const ctx = { store, search, devices, arrival, nothingToExplore, open,
    designBody: h('div', { class: 'design' }),
    designLive: h('p', { class: 'visually-hidden', role: 'status' }),
    // Whether the tuned regime is in reach of the controls left open: with all of them open it is
    // (the act2-best tests); with some fixed, searched once in idle time (start()). Out of reach, the
    // act does not ask for that part of the challenge.
    regimeReach: allOpen ? { reachable: true } : null,
  };
  const designPanel = panel('6. Design challenge: the fastest step',
    h('p', { class: 'panel__lead', text: T.designLead(REGIME) }),
    ctx.designBody, ctx.designLive);

  return {
    el: designPanel.el,
    // Whether the act asks for the challenge (not when every setting is fixed or it is out of reach).
    asked: () => !nothingToExplore && !regimeOut(ctx),
    // Why it is not asked, in the words the lab state records (schema: act2.design.not_asked), or null.
    notAsked: () => (nothingToExplore ? 'every_setting_fixed' : !regimeOut(ctx) ? null
      : ctx.regimeReach.calibration_off ? 'calibration_fixed_off' : 'out_of_reach'),
    render: (state, r) => renderDesign(ctx, state, r),
    // Searches whether the regime is in reach for `config`'s fixed settings; onKnown() once it is.
    start(config, onKnown) {
      if (ctx.regimeReach || nothingToExplore) return;
      search.regimeInIdle(config, open, (res) => { ctx.regimeReach = res; onKnown(); });
    },
  };
}

// Whether the search found the regime out of reach of the controls left open.
const regimeOut = (ctx) => Boolean(ctx.regimeReach && !ctx.regimeReach.reachable);
// A catalog device by id, for naming a recorded best's GPU.
const deviceOf = (ctx, id) => ctx.devices.find((d) => d.id === id);

// Draws the panel for the settings on screen and their result r (nothing until there is one).
function renderDesign(ctx, state, r) {
  const a = state.acts.act2;
  const u = state.config.units;
  if (!r) return;
  const { reached, counts } = recordDesign(ctx, state, r);
  const sh = r.pipeline.chapter_shares;
  const head = designHead(ctx, a, reached, counts);
  const { designBody, regimeReach, nothingToExplore } = ctx;
  designBody.dataset.reach = regimeReach === null ? 'searching' : regimeReach.reachable ? 'yes' : 'no';
  const best = a.design.best;
  const bestIsHere = Boolean(best && typeof best.tokens_per_second === 'number' && JSON.stringify(best.config) === JSON.stringify(state.config2));
  const solverSlots = a.prediction && !nothingToExplore ? solverLinesSoon(ctx, state.config2) : [null, null];
  replaceChildren(designBody,
    h('p', { 'data-regime': reached && counts ? 'reached' : 'not-reached' }, h('strong', { text: head }),
      `Now: data loading ${T.pct(sh.data_loading)}, copies ${T.pct(sh.transfers)}, GPU kernels ${T.pct(sh.compute)} of the step${r.memory.fits ? '' : ' (and the step does not fit in memory)'}.`,
      state.config2.replay || regimeOut(ctx) ? '' : ' The regime and the fastest step count with the chapter calibration on: with the physical constants the loader is fast enough from the start.',
      regimeOut(ctx) && !a.design.regime_reached ? ` ${T.regimeOutOfReach(regimeReach, REGIME)}` : '',
      counts || nothingToExplore ? '' : ' These settings came with the page: change one in section 2 to start.'),
    // The settings on screen, unless they are the fastest so far (then one line says both).
    best && bestIsHere ? null : h('p', { 'data-now-tokens': String(r.pipeline.tokens_per_second) }, h('strong', { text: r.memory.fits ? 'This step: ' : 'This step, if it fitted: ' }),
      `${T.rate(r.pipeline.tokens_per_second)}, MFU ${T.mfuOfPeak(r.pipeline.mfu, r.device.name, r.scenario.precision, r.flops.peak_flops_per_s)}.`),
    best ? bestLine(ctx, best, bestIsHere, r) : null,
    solverSlots[0],
    h('p', { class: 'control__note', 'data-why-mfu': '' }, T.whyFp32MfuHigher(deviceOf(ctx, state.config2.device) || r.device)),
    // The ceiling of the settings on screen beside the highest MFU any setting reaches: two
    // different questions, said together so they do not read as a contradiction.
    whyDetails('Why? MFU ceilings', h('p', { 'data-ceiling': String(r.pipeline.mfu_ceiling) }, T.ceilingText(r)),
      solverSlots[1],
      h('p', { class: 'control__note', text: `Memory for these settings: ${formatBytes(r.memory.peak_bytes, u)}.` })));
}

// Keeps the store's design record in step with the settings on screen, and says so when the regime
// is reached. Returns whether these settings are in the regime and whether they count.
function recordDesign(ctx, state, r) {
  const a = state.acts.act2;
  const { store, designLive, nothingToExplore, regimeReach } = ctx;
  // The regime is the chapter's: it counts with the chapter calibration on (with the physical
  // constants the loader is fast enough from the start) and in a step that fits, and only for
  // settings the student reached after the prediction (designCounts). The best design is the
  // fastest step reached (act2-model.js betterBest).
  const reached = regimeReachedAt(state.config2, r);
  const counts = designCounts(a, nothingToExplore, Boolean(ctx.arrival.act2FromLink));
  // The fastest step is timed as the regime is: with the chapter calibration on, unless this lab
  // fixes it off (a physics-model step is not compared with calibrated ones).
  const bestCounts = counts && Boolean(state.config2.replay || (regimeReach && regimeReach.calibration_off));
  const args = { counts, reached, config: state.config2, result: r, bestCounts };
  const next = designRecord(a.design, args);
  if (next !== a.design) {
    queueMicrotask(() => store.update((s) => withAct2(s, { design: designRecord(s.acts.act2.design, args) })));
  }
  if (counts && reached && !a.design.regime_reached) setText(designLive, 'Tuned regime reached.');
  return { reached, counts };
}

// The panel's first words. Settings that do not count yet never open with words of success (walk:
// 'In the tuned regime' read as done).
function designHead(ctx, a, reached, counts) {
  return ctx.nothingToExplore ? 'Not open here: every setting of the step is fixed in this lab, so there is no design to make. '
    : reached ? (counts ? '✓ Tuned regime reached. ' : 'Not counted yet: these settings are in the tuned regime. ')
      : a.design.regime_reached ? '✓ Tuned regime reached earlier; these settings are outside it. '
        : regimeOut(ctx) ? (ctx.regimeReach.calibration_off ? 'Not asked here. ' : 'Out of reach here. ') : 'Not there yet. ';
}

// The student's fastest step so far, beside the one on screen.
function bestLine(ctx, best, bestIsHere, r) {
  return h('p', { 'data-best-tokens': String(best.tokens_per_second ?? ''), 'data-best-mfu': String(best.mfu) }, h('strong', { text: bestIsHere ? 'This step, your fastest so far: ' : 'Your fastest so far: ' }),
    typeof best.tokens_per_second === 'number'
      // The peak is named once: the line above names it when both steps share it.
      ? `${T.rate(best.tokens_per_second)}, MFU ${!bestIsHere && best.peak_flops_per_s === r.flops.peak_flops_per_s ? T.pct(best.mfu)
        : T.mfuOfPeak(best.mfu, deviceOf(ctx, best.config.device).name, best.config.precision, best.peak_flops_per_s)}${bestIsHere ? '' : `, with ${describeSettings(ctx, best.config)}`}.`
      : `recorded before the goal was the fastest step (MFU ${T.pct(best.mfu)}); change any setting to record one.`);
}

// The fastest step and the highest MFU this act's controls can reach on this GPU with the student's
// loader settings: every precision × checkpointing scheme at its largest slider batch that fits
// (act2-best.js), and the solver's fastest run beyond the act's controls (any batch, any optimizer).
// [the fastest line, the highest-MFU line] for c: at once when known, else placeholders filled in
// once the search has run (act2-search.js).
function solverLinesSoon(ctx, c) {
  const { search } = ctx;
  if (search.known(c)) return solverLines(ctx, c);
  const slots = [h('p', { class: 'control__note', text: 'Searching every setting this act offers on this GPU…' }), h('p')];
  search.whenRested(c, () => {
    const lines = solverLines(ctx, c);
    slots.forEach((slot, i) => { if (slot.isConnected) slot.replaceWith(lines[i]); });
  });
  return slots;
}

// The two lines themselves, once the search for c is known.
function solverLines(ctx, c) {
  const { act, solver } = ctx.search.bestFor(c);
  if (!act) return [h('p', { 'data-solver-mfu': '', 'data-solver-tokens': '' }, h('strong', { text: 'The fastest this GPU allows here: ' }), `nothing this act can set fits on this GPU${c.replay ? '' : ' with the physics model'} (see the banner in section 2).`), h('p')];
  const same = act.fastest === act.best_mfu;
  // The fastest setting leads (the goal); the highest MFU is a different question, said beside the
  // ceiling (its own setting's, not the one on screen), with the solver's run beyond these controls.
  return [
    h('p', { 'data-solver-tokens': String(act.fastest.tokens_per_second) }, h('strong', { text: 'The fastest with your loader settings: ' }),
      `${T.rate(act.fastest.tokens_per_second)} (${actWords(act.fastest.config)}), MFU ${T.pct(act.fastest.mfu)}.`),
    h('p', { class: 'control__note', 'data-solver-mfu': String(act.best_mfu.mfu) },
      same ? `That fastest setting also has the highest MFU of the ${act.tried} settings here that fit.`
        : `The highest MFU of the ${act.tried} settings here that fit is ${T.pct(act.best_mfu.mfu)} (${actWords(act.best_mfu.config)}), at only ${T.rate(act.best_mfu.tokens_per_second)}.`,
      solver ? ` Beyond these controls (any optimizer, any batch up to ${BATCH_SIZES2[BATCH_SIZES2.length - 1]}) the engine’s solver finds ${T.rate(solver.tokens_per_second)} (${solverWords(solver.configuration)}).` : ''),
  ];
}

// A setting the act's search tried, in words: precision, checkpointing, batch.
const actWords = (cfg) => `${cfg.precision === 'mixed' ? 'mixed precision' : 'FP32'}, ${cfg.checkpointing === 'every_k' ? `checkpoint every ${formatCount(cfg.every_k, 'layer')}` : `${cfg.checkpointing} checkpointing`}, batch ${cfg.batch_size}`;
// The solver's configuration in words (its own schema: any precision and optimizer).
const solverWords = (cfg) => `${cfg.precision === 'mixed' ? 'mixed precision' : cfg.precision.toUpperCase()}, ${cfg.optimizer === 'adam' ? 'Adam' : cfg.optimizer === 'sgd' ? 'SGD' : 'SGD + Momentum'}, ${cfg.checkpointing === 'none' ? 'no' : typeof cfg.checkpointing === 'object' ? `every-${cfg.checkpointing.every_k_layers}-layers` : cfg.checkpointing} checkpointing, batch ${cfg.batch_size}`;

// All of a recorded best's Act 2 settings in words, for the "Your fastest so far" line.
function describeSettings(ctx, c) {
  const ck = c.checkpointing === 'every_k' ? `checkpoint every ${formatCount(c.every_k, 'layer')}` : c.checkpointing === 'none' ? 'no checkpointing' : LABELS.checkpointing[c.checkpointing].toLowerCase();
  return `${c.precision === 'mixed' ? 'mixed precision' : 'FP32'}, ${ck}, batch ${c.batch_size}, ${formatCount(c.data_workers, 'worker')}${c.prefetch && c.data_workers > 0 ? `, prefetch depth ${c.prefetch_depth}` : ''}${c.pinned_memory ? ', pinned' : ''}, ${T.shortGpu(ctx.devices.find((d) => d.id === c.device).name)}${c.replay ? '' : ' (physics model)'}`; // a best counts with the calibration on unless the lab fixes it off
}
