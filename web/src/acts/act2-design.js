// Act 2's section 6, the design challenge: reach the chapter's tuned regime, then the best MFU. It
// records the student's best design in the store (act2-model.js designRecord), says whether the
// regime is in reach of the controls an instructor left open (act2-best.js regimeSearch, run once in
// idle time by act2-search.js), and sets the best the act's controls and the engine's solver reach
// beside it. Words from act2-text.js; the act (act2.js) renders it after each paint.
import { h, setText, replaceChildren } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { LABELS, BATCH_SIZES2, toScenario2 } from '../scenario.js';
import { regimeReachedAt, designCounts, designRecord, REGIME } from '../act2-model.js';
import { formatBytes, formatCount } from '../format.js';
import { withAct2 } from '../store.js';
import * as T from './act2-text.js';

// open: the controls left open (a Set); allOpen: whether that is every control of the act.
export function createDesignPanel({ evaluate, store, search, devices, arrival, nothingToExplore, open, allOpen }) {
  const designBody = h('div', { class: 'design' });
  const designLive = h('p', { class: 'visually-hidden', role: 'status' });
  const designPanel = panel('6. Design challenge: the chapter’s tuned regime, then the best MFU',
    h('p', { class: 'panel__lead', text: `Starting from the chapter’s baseline loop (the one that loads data inside the training process, as in section 5), reach its tuned regime (data loading ≤ ${REGIME.max_data_share * 100}% and GPU compute ≥ ${REGIME.min_compute_share * 100}% of the step, the chapter’s own shares), then push MFU as high as the physics lets you.` }),
    designBody, designLive);

  // Whether the tuned regime is in reach of the controls left open: with all of them open it is (the
  // act2-best tests); with some fixed, searched once in idle time (start()). Out of reach, the act does
  // not ask for that part of the challenge.
  let regimeReach = allOpen ? { reachable: true } : null;
  const regimeOut = () => Boolean(regimeReach && !regimeReach.reachable);

  function renderDesign(state, r) {
    const a = state.acts.act2;
    const u = state.config.units;
    if (!r) return;
    // The challenge is the chapter's: it counts with the chapter calibration on (with the physical
    // constants the loader is fast enough from the start) and in a step that fits, and only for
    // settings the student reached after the prediction (designCounts).
    const reached = regimeReachedAt(state.config2, r);
    const counts = designCounts(a, nothingToExplore, Boolean(arrival.act2FromLink));
    const next = designRecord(a.design, { counts, reached, config: state.config2, result: r });
    if (next !== a.design) {
      queueMicrotask(() => store.update((s) => withAct2(s, { design: designRecord(s.acts.act2.design, { counts, reached, config: state.config2, result: r }) })));
    }
    if (counts && reached && !a.design.regime_reached) setText(designLive, 'Tuned regime reached.');
    const sh = r.pipeline.chapter_shares;
    const ceiling = r.pipeline.mfu_ceiling;
    const k = r.pipeline.gpu.kernel_efficiency;
    const overhead = r.flops.recompute_per_token / r.flops.model_per_token;
    // Settings that do not count yet never open with words of success (walk: 'In the tuned regime' read as done).
    const head = nothingToExplore ? 'Not open here: every setting of the step is fixed in this lab, so there is no design to make. '
      : reached ? (counts ? '✓ Tuned regime reached. ' : 'Not counted yet: these settings are in the tuned regime. ')
        : a.design.regime_reached ? '✓ Tuned regime reached earlier; these settings are outside it. '
          : regimeOut() ? (regimeReach.calibration_off ? 'Not asked here. ' : 'Out of reach here. ') : 'Not there yet. ';
    designBody.dataset.reach = regimeReach === null ? 'searching' : regimeReach.reachable ? 'yes' : 'no';
    replaceChildren(designBody,
      h('p', { 'data-regime': reached && counts ? 'reached' : 'not-reached' }, h('strong', { text: head }),
        `Now: data loading ${T.pct(sh.data_loading)}, transfers ${T.pct(sh.transfers)}, GPU compute ${T.pct(sh.compute)} of the step${r.memory.fits ? '' : ' (and the step does not fit in memory)'}.`,
        state.config2.replay || regimeOut() ? '' : ' The check counts with the chapter calibration on: with the physical constants the loader is fast enough from the start.',
        regimeOut() && !a.design.regime_reached ? ` ${T.regimeOutOfReach(regimeReach, REGIME)}` : '',
        counts || nothingToExplore ? '' : ' The challenge counts settings you reach yourself after your prediction; these came with the page (a link or the defaults), so change any setting in section 2 to start.'),
      h('p', { text: `MFU ceiling for these settings: ${T.pct(ceiling)}. Even if loading, copies and memory-bound kernels took no time at all, matrix multiplications run at ${T.pct(k)} of peak at this batch size${overhead > 0 ? ` and recomputation adds ${T.pct(overhead)} to the model’s FLOPs, so MFU ≤ ${T.pct(k)} ÷ ${(1 + overhead).toFixed(2)} = ${T.pct(ceiling)}` : ''}. ${ceiling < 0.8 ? ` An MFU of 80% or more is out of reach${overhead > 0 ? ' with recomputation' : ' at this batch size'}.` : ' Only here, with no recomputation and a large batch, could MFU pass 80%, and only if everything else took no time.'}` }),
      a.design.best ? h('p', { 'data-best-mfu': String(a.design.best.mfu) }, h('strong', { text: 'Your best so far: ' }),
        `MFU ${T.pct(a.design.best.mfu)} (busy ${T.pct(a.design.best.busy_fraction)}, pipeline efficiency ${T.pct(a.design.best.pipeline_efficiency)}, ${T.rate(bestTokens(a.design.best.config))}) with ${describe2(a.design.best.config)}.`) : null,
      a.prediction && !nothingToExplore ? solverLineSoon(state.config2) : null,
      h('p', { class: 'control__note', text: `Memory for these settings: ${formatBytes(r.memory.peak_bytes, u)}.` }));
  }

  // The best MFU this act's controls can reach on this GPU with the student's loader settings: every
  // precision × checkpointing scheme at its largest slider batch that fits (act2-best.js), and the
  // solver's fastest run beyond the act's controls (any batch, any optimizer) for contrast.
  function solverLineSoon(c) {
    if (search.known(c)) return solverLine(c);
    const slot = h('p', { class: 'control__note', text: 'Searching every setting this act offers on this GPU…' });
    search.whenRested(c, () => { if (slot.isConnected) slot.replaceWith(solverLine(c)); });
    return slot;
  }
  function solverLine(c) {
    const { act, solver } = search.bestFor(c);
    if (!act) return h('p', { 'data-solver-mfu': '' }, h('strong', { text: 'The best the physics allows here: ' }), `nothing this act can set fits on this GPU${c.replay ? '' : ' with the physics model'} (see the banner in section 2).`);
    const words = (cfg) => `${cfg.precision === 'mixed' ? 'mixed precision' : 'FP32'}, ${cfg.checkpointing === 'every_k' ? `checkpoint every ${formatCount(cfg.every_k, 'layer')}` : `${cfg.checkpointing} checkpointing`}, batch ${cfg.batch_size}`;
    const solverWords = (cfg) => `${cfg.precision === 'mixed' ? 'mixed precision' : cfg.precision.toUpperCase()}, ${cfg.optimizer === 'adam' ? 'Adam' : cfg.optimizer === 'sgd' ? 'SGD' : 'SGD + Momentum'}, ${cfg.checkpointing === 'none' ? 'no' : typeof cfg.checkpointing === 'object' ? `every-${cfg.checkpointing.every_k_layers}-layers` : cfg.checkpointing} checkpointing, batch ${cfg.batch_size}`;
    const same = act.fastest === act.best_mfu;
    return h('p', { 'data-solver-mfu': String(act.best_mfu.mfu) }, h('strong', { text: 'The best the physics allows here: ' }),
      `with your loader settings on this GPU, the highest MFU these controls can reach is ${T.pct(act.best_mfu.mfu)} (${words(act.best_mfu.config)}), making ${T.rate(act.best_mfu.tokens_per_second)}; ${act.tried} settings that fit were tried, each precision and checkpointing scheme at its largest batch on the slider. `,
      same ? 'It is also the fastest of them. ' : `The fastest of them makes ${T.rate(act.fastest.tokens_per_second)} (${words(act.fastest.config)}): MFU is measured against each precision’s own peak, so a higher MFU is not always a faster run. `,
      solver ? `Beyond these controls, with any optimizer and any batch size up to ${BATCH_SIZES2[BATCH_SIZES2.length - 1]}, the engine’s solver finds ${T.rate(solver.tokens_per_second)} (${solverWords(solver.configuration)}).` : '');
  }

  const bestTokens = (c) => evaluate(toScenario2(c, { schedule_steps: 0 })).pipeline.tokens_per_second;

  function describe2(c) {
    const ck = c.checkpointing === 'every_k' ? `checkpoint every ${formatCount(c.every_k, 'layer')}` : c.checkpointing === 'none' ? 'no checkpointing' : LABELS.checkpointing[c.checkpointing].toLowerCase();
    return `${c.precision === 'mixed' ? 'mixed precision' : 'FP32'}, ${ck}, batch ${c.batch_size}, ${formatCount(c.data_workers, 'worker')}${c.prefetch && c.data_workers > 0 ? `, prefetch depth ${c.prefetch_depth}` : ''}${c.pinned_memory ? ', pinned' : ''}, ${devices.find((d) => d.id === c.device).name}${c.replay ? ' (chapter calibration)' : ''}`;
  }

  return {
    el: designPanel.el,
    // Whether the act asks for the challenge (not when every setting is fixed or it is out of reach).
    asked: () => !nothingToExplore && !regimeOut(),
    // Why it is not asked, in the words the lab state records (schema: act2.design.not_asked), or null.
    notAsked: () => (nothingToExplore ? 'every_setting_fixed' : !regimeOut() ? null
      : regimeReach.calibration_off ? 'calibration_fixed_off' : 'out_of_reach'),
    render: renderDesign,
    // Searches whether the regime is in reach for `config`'s fixed settings; onKnown() once it is.
    start(config, onKnown) {
      if (regimeReach || nothingToExplore) return;
      search.regimeInIdle(config, open, (res) => { regimeReach = res; onKnown(); });
    },
  };
}
