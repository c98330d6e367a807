// Pure URL state (no DOM): the lab configuration <-> URLSearchParams, plus the instructor flags
// `hide=` and `lock=` (comma lists of control keys). Bad parameters never throw and never drop the
// rest: each becomes a message for the student and that knob keeps its previous value.
// Example: ?act=1&opt=adam&prec=fp32&batch=8&ckpt=none&dev=h100-sxm-80gb&units=gb&replay=0&lock=prec,dev
import {
  OPTIMIZERS, PRECISIONS, BATCH_SIZES, UNIT_IDS, COMPONENT_KEYS, CUSTOM_DEVICE,
  CUSTOM_CAPACITY_GB, EVERY_K,
} from './scenario.js';

// Control keys the flags can name; each is one control (or group) in the UI.
export const CONTROL_KEYS = ['opt', 'prec', 'batch', 'ckpt', 'dev', 'units', 'replay', 'comp'];
const CKPT_FROM_PARAM = { none: 'none', selective: 'selective', full: 'full', every: 'every_k' };
const CKPT_TO_PARAM = { none: 'none', selective: 'selective', full: 'full', every_k: 'every' };

const list = (items) => items.join(', ');

function parseFlagList(params, name, errors) {
  const raw = params.get(name);
  if (raw === null || raw === '') return [];
  const out = [];
  for (const item of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (CONTROL_KEYS.includes(item)) { if (!out.includes(item)) out.push(item); } else {
      errors.push({ param: name, message: `${name}=${raw}: '${item}' is not a control name (known: ${list(CONTROL_KEYS)}); it was ignored.` });
    }
  }
  return out;
}

// search: a query string ('?a=b' or 'a=b') or URLSearchParams. deviceIds: the catalog's device ids.
// availableActs: act ids that can be shown (numbers, and 'measure' for the panel beside the acts).
// Returns { act, config, hide, lock, errors, hasConfig }
// where config holds only the knobs the URL set validly.
export function parseUrlState(search, { deviceIds = [], availableActs = [1] } = {}) {
  const params = search instanceof URLSearchParams ? search : new URLSearchParams(search);
  const config = {};
  const errors = [];
  const kept = 'that setting was left as it was.';
  const bad = (param, message) => errors.push({ param, message: `${param}=${params.get(param)}: ${message}; ${kept}` });

  let act = null;
  if (params.has('act')) {
    const raw = params.get('act');
    const n = /^\d+$/.test(raw) ? Number(raw) : raw; // acts are numbered; panels beside them are named
    if (availableActs.includes(n)) act = n;
    else if (Number.isInteger(n) && n >= 1 && n <= 2) {
      errors.push({ param: 'act', message: `Act ${n} is not available yet, so Act ${availableActs[0]} is shown.` });
    } else bad('act', `not an act of this lab (${list(availableActs.map(String))})`);
  }
  if (params.has('opt')) {
    const v = params.get('opt');
    if (OPTIMIZERS.includes(v)) config.optimizer = v;
    else bad('opt', `not an optimizer (use ${list(OPTIMIZERS)})`);
  }
  if (params.has('prec')) {
    const v = params.get('prec');
    if (PRECISIONS.includes(v)) config.precision = v;
    else bad('prec', `not a precision (use ${list(PRECISIONS)})`);
  }
  if (params.has('batch')) {
    const v = params.get('batch');
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (BATCH_SIZES.includes(n)) config.batch_size = n;
    else bad('batch', `not one of the batch sizes ${list(BATCH_SIZES.map(String))}`);
  }
  if (params.has('ckpt')) {
    const v = params.get('ckpt');
    if (v in CKPT_FROM_PARAM) config.checkpointing = CKPT_FROM_PARAM[v];
    else bad('ckpt', `not a checkpointing scheme (use ${list(Object.keys(CKPT_FROM_PARAM))})`);
  }
  if (params.has('k')) {
    const v = params.get('k');
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (n >= EVERY_K.min && n <= EVERY_K.max) config.every_k = n;
    else bad('k', `the checkpoint interval must be a whole number of layers from ${EVERY_K.min} to ${EVERY_K.max}`);
  }
  if (params.has('dev')) {
    const v = params.get('dev');
    if (v === CUSTOM_DEVICE || deviceIds.includes(v)) config.device = v;
    else bad('dev', `not a device (use ${list([...deviceIds, CUSTOM_DEVICE])})`);
  }
  if (params.has('cap')) {
    const v = params.get('cap');
    const n = /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
    if (n >= CUSTOM_CAPACITY_GB.min && n <= CUSTOM_CAPACITY_GB.max) config.custom_capacity_gb = n;
    else bad('cap', `the custom device capacity must be a number of GB from ${CUSTOM_CAPACITY_GB.min} to ${CUSTOM_CAPACITY_GB.max}`);
  }
  if (params.has('units')) {
    const v = params.get('units');
    if (UNIT_IDS.includes(v)) config.units = v;
    else bad('units', `units must be ${list(UNIT_IDS)}`);
  }
  if (params.has('replay')) {
    const v = params.get('replay');
    if (v === '1' || v === '0') config.replay = v === '1';
    else bad('replay', 'use replay=1 (chapter replay on) or replay=0 (off)');
  }
  if (params.has('off')) {
    const raw = params.get('off');
    const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
    const good = items.filter((k) => COMPONENT_KEYS.includes(k));
    const unknown = items.filter((k) => !COMPONENT_KEYS.includes(k));
    config.hidden_components = [...new Set(good)];
    if (unknown.length) {
      errors.push({ param: 'off', message: `off=${raw}: ${list(unknown.map((k) => `'${k}'`))} not a ledger component (known: ${list(COMPONENT_KEYS)}); ignored.` });
    }
  }
  const hide = parseFlagList(params, 'hide', errors);
  const lock = parseFlagList(params, 'lock', errors);
  return { act, config, hide, lock, errors, hasConfig: Object.keys(config).length > 0 };
}

// The query string for a state (always the whole configuration, so a copied URL reproduces it).
export function serializeUrlState({ act = 1, config, hide = [], lock = [] }) {
  const p = new URLSearchParams();
  p.set('act', String(act));
  p.set('opt', config.optimizer);
  p.set('prec', config.precision);
  p.set('batch', String(config.batch_size));
  p.set('ckpt', CKPT_TO_PARAM[config.checkpointing]);
  if (config.checkpointing === 'every_k') p.set('k', String(config.every_k));
  p.set('dev', config.device);
  if (config.device === CUSTOM_DEVICE) p.set('cap', String(config.custom_capacity_gb));
  p.set('units', config.units);
  p.set('replay', config.replay ? '1' : '0');
  if (config.hidden_components && config.hidden_components.length) p.set('off', config.hidden_components.join(','));
  if (hide.length) p.set('hide', hide.join(','));
  if (lock.length) p.set('lock', lock.join(','));
  return `?${p.toString().replace(/%2C/g, ',')}`;
}
