// Act 2's laptop challenge: fit GPT-2 XL training on the 8 GB laptop GPU. Every change is a move,
// recorded with the engine's peak memory after it; the solver's floor (the least memory any
// numerically valid configuration needs) ends the challenge with its derivation in bytes. Pure
// 16-bit without a master copy is shown as "fits, but cannot train", never as success.
import { h, uid, setText, replaceChildren, scrollBox } from '../ui/dom.js';
import { MoveChart } from '../charts/move-chart.js';
import { DataTable } from '../charts/data-table.js';
import { OPTIMIZERS, PRECISIONS, CHECKPOINTING, LABELS, EVERY_K, LAPTOP_START, LAPTOP_BATCH_SIZES, LAPTOP_DEVICE, toLaptopScenario } from '../state/scenario.js';
import { describeMove, laptopMove, laptopState, floorRoundedSum } from '../models/act2-model.js';
import { Banner } from '../ui/banner.js';
import { formatBytes, formatInt, formatAmount, unitOf, UNIT_SPACE } from '../format/format.js';
import { withAct2 } from '../state/store.js';
import { LAPTOP } from '../content/act2-text.js';
import { withFlags } from '../state/url-state.js';
import { whyDetails } from '../ui/why-details.js';

const FLOOR_WORDS = {
  weights: 'Weights, 16-bit copy the GPU computes with',
  gradients: 'Gradients, 16-bit',
  master_weights: 'FP32 master copy of the weights',
  activations: 'Activations kept for backward: each layer’s input',
  recompute_working_set: 'One layer’s activations, rebuilt during backward',
  logits: 'Output logits (FP32)',
  logits_gradient: 'Gradient of the logits (FP32)',
  reserve: 'CUDA context and allocator reserve',
};
const STATE_WORDS = { ok: 'fits and trains', invalid: 'fits, but cannot train (updates stall)', oom: 'does not fit' };

// Act 3 starts from the challenge's settings (pure 16-bit cannot train, so it is not carried).
const CKPT_PARAM = { none: 'none', selective: 'selective', full: 'full', every_k: 'every' };
export function act3Link(c) {
  const p = new URLSearchParams({ act: '3', ...(c.precision === 'fp32' || c.precision === 'mixed' ? { prec: c.precision } : {}),
    opt: c.optimizer, ckpt: CKPT_PARAM[c.checkpointing], ...(c.checkpointing === 'every_k' ? { k: String(c.every_k) } : {}),
    batch: String(c.batch_size), dev: LAPTOP_DEVICE });
  return `?${p}`;
}

// A closed select steps through its options on arrow keys (and Home, End, Page Up/Down), one change
// per option: onPick learns whether a change came from such a key, so those steps can be one move.
const STEP_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
function select(label, values, words, onPick) {
  const id = uid('lap');
  let steppedAt = -Infinity;
  const el = h('select', { id,
    onkeydown: (e) => { if (STEP_KEYS.has(e.key)) steppedAt = performance.now(); },
    // The arrow key's change follows its keydown at once; a pick with the mouse never does.
    onchange: () => onPick(el.value, performance.now() - steppedAt < 50) },
  values.map((v) => h('option', { value: String(v), text: words(v) })));
  return { el, box: h('div', { class: 'control' }, h('label', { for: id, text: label }), el) };
}

export function createLaptopChallenge({ engine, store, announce, flags = {} }) {
  const solved = engine.call('solve', { model: 'gpt2-xl', device: 'rtx4060-laptop-8gb' });
  if (solved.error) throw new Error(`the solver failed: ${solved.error.message}`);
  // The challenge's state and elements, passed to the named parts below.
  const ctx = { store, announce, flags, solved, floor: solved.floor, budget: solved.device.capacity_bytes,
    evaluate: (config) => engine.evaluate(toLaptopScenario(config)) };
  ctx.record = createMoveRecorder(ctx);
  buildLaptopControls(ctx);
  const el = buildLaptopView(ctx);
  return { el, render: (state) => renderLaptop(ctx, state), floor: ctx.floor, budget: ctx.budget };
}

// The settings of the last move, or the chapter's baseline before the first.
function currentConfig(store) {
  const moves = store.getState().acts.act2.laptop.moves;
  return moves.length ? moves[moves.length - 1].config : { ...LAPTOP_START };
}

// record(patch, stepped): one change of a select as a move. Arrowing through a select fires a change
// per option: an arrow-key change that follows, within 1.5 s, an arrow-key change of the same control
// replaces the move that one made. A pick with the mouse or from the open list is always a move of
// its own (a quick pure-FP16 try, then mixed, keeps both in the record).
function createMoveRecorder(ctx) {
  const { store, announce, evaluate } = ctx;
  let lastMove = { key: null, at: 0, stepped: false };
  return (patch, stepped = false) => {
    const key = Object.keys(patch).join(',');
    const now = Date.now();
    const coalesce = stepped && lastMove.stepped && key === lastMove.key && now - lastMove.at < 1500 && store.getState().acts.act2.laptop.moves.length > 1;
    lastMove = { key, at: now, stepped };
    const movesNow = store.getState().acts.act2.laptop.moves;
    const prev = coalesce ? movesNow[movesNow.length - 2].config : currentConfig(store);
    const next = { ...prev, ...patch };
    // Arrowing away and back again is no move at all: the merged move goes.
    if (coalesce && JSON.stringify(next) === JSON.stringify(prev)) {
      store.update((s) => withAct2(s, { laptop: { ...s.acts.act2.laptop, moves: s.acts.act2.laptop.moves.slice(0, -1) } }));
      lastMove = { key: null, at: 0, stepped: false }; // the next arrow step is a move of its own
      return;
    }
    const r = evaluate(next);
    if (r.error) { announce(`The engine could not compute that: ${r.error.message}`); return; }
    appendMove(ctx, { prev, next, r, coalesce });
  };
}

// Writes a move (replacing the last one when coalesced) and whether it fits, trains or reaches the floor.
function appendMove({ store, evaluate, floor }, { prev, next, r, coalesce }) {
  store.update((s) => {
    const lap = s.acts.act2.laptop;
    const kept = coalesce ? lap.moves.slice(0, -1) : lap.moves;
    const moves = kept.length ? kept : [laptopMove('start: the chapter’s baseline settings', prev, evaluate(prev))];
    const m = laptopMove(describeMove(prev, next), next, r);
    const atFloor = m.trainable && m.peak_bytes <= floor.peak_bytes;
    return withAct2(s, { laptop: {
      ...lap, moves: [...moves, m].slice(-200), fit_achieved: lap.fit_achieved || (m.fits && m.trainable),
      floor_bytes: floor.peak_bytes, finished: lap.finished || atFloor,
    } });
  });
}

// The five settings a student changes, each change recorded as a move.
function buildLaptopControls(ctx) {
  const { record } = ctx;
  ctx.prec = select('Precision', PRECISIONS, (v) => LABELS.precisionShort[v], (v, stepped) => record({ precision: v }, stepped));
  ctx.opt = select('Optimizer', OPTIMIZERS, (v) => LABELS.optimizer[v], (v, stepped) => record({ optimizer: v }, stepped));
  ctx.ckpt = select('Activation checkpointing', CHECKPOINTING, (v) => LABELS.checkpointing[v], (v, stepped) => record({ checkpointing: v }, stepped));
  ctx.k = select('Every k layers, k =', Array.from({ length: EVERY_K.max }, (_, i) => i + 1), String, (v, stepped) => record({ every_k: Number(v) }, stepped));
  ctx.batch = select('Batch size (sequences)', LAPTOP_BATCH_SIZES, String, (v, stepped) => record({ batch_size: Number(v) }, stepped));
}

// The challenge's page: the controls, the banner, the move chart and its table, and the limit.
// Returns its element; the parts render reads go on ctx.
function buildLaptopView(ctx) {
  const { store, flags, floor } = ctx;
  const banner = new Banner();
  const status = banner.el;
  const stallNote = h('p', { class: 'control__note stall-note' }, LAPTOP.stallText, ' ', h('a', { href: withFlags('?act=measure', flags), text: LAPTOP.stallLink }), '.');
  const chartBox = h('div', { class: 'chart-box chart-box--fluid' });
  const capNote = h('p', { class: 'control__note' });
  const summary = h('p', { class: 'chart-summary' });
  const twin = h('details', { class: 'twin' }, h('summary', { text: 'Your moves as a table' }));
  const table = new DataTable(twin, { caption: 'Moves and the peak memory after each', className: 'move-table' });
  const chart = new MoveChart(chartBox);
  const scroll = twin.querySelector('.table-scroll');
  if (scroll) { scroll.tabIndex = 0; scroll.setAttribute('role', 'region'); scroll.setAttribute('aria-label', 'Moves table (scrolls sideways on narrow screens)'); }
  const limit = h('div', { class: 'limit', role: 'status' });
  const giveUp = h('button', { type: 'button', class: 'btn laptop__limit-btn', text: 'I cannot get it lower: show the limit',
    onclick: () => { store.update((s) => withAct2(s, { laptop: { ...s.acts.act2.laptop, floor_bytes: floor.peak_bytes, finished: true } })); limit.focus(); } });
  const restart = h('button', { type: 'button', class: 'btn btn--small', text: 'Start the challenge over',
    onclick: () => store.update((s) => withAct2(s, { laptop: { moves: [], fit_achieved: false, floor_bytes: null, finished: false } })) });
  limit.setAttribute('tabindex', '-1');
  Object.assign(ctx, { banner, stallNote, capNote, summary, table, chart, limit, giveUp });

  // How to read the chart and where its numbers come from: one click away (issue 23, words budget).
  const why = whyDetails('Why? Reading the chart', capNote, h('p', { class: 'control__note', text: LAPTOP.physics }));
  const { prec, opt, ckpt, k, batch } = ctx;
  return h('div', { class: 'laptop' },
    h('p', { class: 'panel__lead', text: LAPTOP.lead }),
    h('div', { class: 'controls controls--laptop' }, prec.box, opt.box, ckpt.box, k.box, batch.box),
    status, stallNote, h('figure', { class: 'chart-figure' }, chartBox, h('figcaption', {}, summary)), why, twin,
    h('div', { class: 'laptop__actions' }, giveUp, restart), limit);
}

// Draws the challenge for the last move: the selects, the banner, the chart and table, the limit.
function renderLaptop(ctx, state) {
  const { prec, opt, ckpt, k, batch, banner, budget, chart, table } = ctx;
  const lap = state.acts.act2.laptop;
  const c = currentConfig(ctx.store);
  prec.el.value = c.precision; opt.el.value = c.optimizer; ckpt.el.value = c.checkpointing;
  k.el.value = String(c.every_k); k.box.hidden = c.checkpointing !== 'every_k'; batch.el.value = String(c.batch_size);
  const r = ctx.evaluate(c);
  const st = laptopState(r);
  const u = state.config.units;
  banner.update({ state: st, title: `Peak ${formatBytes(r.memory.peak_bytes, u)} against ${formatBytes(budget, u)} usable: ${STATE_WORDS[st]}.` });
  ctx.stallNote.hidden = st !== 'invalid';
  const moves = lap.moves.length ? lap.moves : [laptopMove('start: the chapter’s baseline settings', c, r)];
  const gib = (budget / 2 ** 30).toFixed(0);
  // The dashed line first, so its label (in the chosen unit) and the sentence agree in either unit;
  // bar values are left off where they would collide (move-chart.js), so the table is named.
  setText(ctx.capNote, `The dashed line is the laptop GPU’s memory: sold as “8 GB”, it has ${gib} GiB, which is ${formatBytes(budget, 'gb')} in GB of 10^9 bytes. The chart’s height scale is logarithmic (each step up multiplies memory); each bar carries its peak in ${unitOf(u).label} where there is room (the table below has every one); hatched bars do not fit, and a dashed outline fits but cannot train.`);
  const sentence = `${moves.length - 1} move${moves.length === 2 ? '' : 's'} so far; peak memory now ${formatBytes(moves[moves.length - 1].peak_bytes, u)}, ${STATE_WORDS[st]}; the laptop holds ${formatBytes(budget, u)}.`;
  chart.update(moves, { budgetBytes: budget, budgetLines: [formatBytes(budget, u), 'usable'], amount: (b) => formatAmount(b, u),
    title: `Peak memory after each move (${unitOf(u).label}, log scale)`, summary: sentence });
  setText(ctx.summary, `${moves.length - 1} move${moves.length === 2 ? '' : 's'} so far.`); // the banner says the rest
  table.update({
    columns: ['Move', 'Change', `Peak (${u === 'gib' ? 'GiB' : 'GB'})`, 'State'],
    rows: moves.map((m, i) => ({ key: String(i), header: i === 0 ? 'start' : String(i),
      cells: [{ text: m.move }, { text: formatAmount(m.peak_bytes, u), value: m.peak_bytes }, { text: STATE_WORDS[m.fits ? (m.trainable ? 'ok' : 'invalid') : 'oom'] }] })),
  });
  ctx.giveUp.hidden = lap.finished;
  ctx.limit.hidden = !lap.finished;
  if (lap.finished) renderLimit(ctx, u);
}

// The end of the challenge: the least memory that trains, why it cannot fit, and the way to Act 3.
function renderLimit(ctx, u) {
  const { floor, budget, flags, solved } = ctx;
  const cfg = floor.configuration;
  const staticFloor = floor.static_floor_bytes;
  replaceChildren(ctx.limit,
    h('h4', { text: lapFitText(ctx.store) }),
    h('p', { text: `The least memory that trains is ${formatBytes(floor.peak_bytes, u)} (${cfg.precision === 'mixed' ? 'mixed precision' : LABELS.precision[cfg.precision]}, ${LABELS.optimizer[cfg.optimizer]}, ${LABELS.checkpointing[cfg.checkpointing].toLowerCase()}, batch ${cfg.batch_size}); its static part alone, ${formatBytes(staticFloor, u)}, exceeds the laptop’s ${formatBytes(budget, u)}.` }),
    h('p', {}, LAPTOP.beyond, ' ', h('a', { href: withFlags(act3Link(currentConfig(ctx.store)), flags), 'data-link': 'act3', text: 'Act 3: how many GPUs would it take?' })),
    whyDetails('Why? The floor, term by term', h('p', { class: 'control__note', text: `The solver checked every numerically valid combination: FP32 or mixed precision × three optimizers × ${formatInt(solved.checkpointing_options)} checkpointing schemes (${formatInt(2 * 3 * solved.checkpointing_options)} in all), at batch 1.` }),
      floorTable(floor, u)));
}

// The solver's floor term by term, in exact bytes and in the chosen unit.
function floorTable(floor, u) {
  return scrollBox(h('table', { class: 'data-table floor-table' },
    h('caption', { text: `Where the ${formatBytes(floor.peak_bytes, u)} floor comes from (exact bytes)` }),
    h('thead', {}, h('tr', {}, ['Component', 'Bytes per parameter', 'Bytes', u === 'gib' ? 'GiB' : 'GB'].map((t) => h('th', { scope: 'col', text: t })))),
    h('tbody', {}, floor.derivation.map((d) => h('tr', { 'data-component': d.component },
      h('th', { scope: 'row', text: FLOOR_WORDS[d.component] || d.words.split(':')[0] }),
      h('td', { class: 'num', text: d.bytes_per_param === null ? '—' : String(d.bytes_per_param) }),
      h('td', { 'data-value': String(d.bytes), text: formatInt(d.bytes) }),
      h('td', { class: 'num', text: formatAmount(d.bytes, u) })))),
    h('tfoot', {}, roundedRow(floor, u), h('tr', {}, h('th', { scope: 'row', text: 'Total' }), h('td', { text: '' }),
      h('td', { 'data-value': String(floor.peak_bytes), text: formatInt(floor.peak_bytes) }), h('td', { class: 'num', text: formatAmount(floor.peak_bytes, u) })))), 'Floor derivation table (scrolls sideways on narrow screens)');
}

// A note row where the rounded rows do not add to the rounded total (each is rounded from bytes).
function roundedRow(floor, u) {
  const shown = floorRoundedSum(floor.derivation, floor.peak_bytes, u);
  return shown && h('tr', { 'data-row': 'rounded-sum', class: 'row--note' },
    h('th', { scope: 'row', text: `The rows above as shown add to ${shown}; each is rounded from its exact bytes, which add up to the total` }),
    h('td', { text: '' }), h('td', { text: '' }), h('td', { class: 'num', text: shown.split(UNIT_SPACE)[0] }));
}

// The limit's heading: a success if the student found a fit that trains, else the physical limit.
function lapFitText(store) {
  return store.getState().acts.act2.laptop.fit_achieved ? 'You found a configuration that fits and trains.' : 'Physical limit reached: GPT-2 XL cannot train on this laptop GPU';
}
