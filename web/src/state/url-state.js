// Pure URL state (no DOM): the lab configuration <-> URLSearchParams, plus the instructor flags
// `hide=` and `lock=` (comma lists of control keys). Bad parameters never throw and never drop the
// rest: each becomes a message for the student and that knob keeps its previous value. A parameter
// given twice, or one that only means something beside another (k without ckpt=every), is bad too.
// Act 1 (and the "Measure it" panel): ?act=1&opt=adam&prec=fp32&batch=8&ckpt=none&dev=h100-sxm-80gb&units=gb&replay=0&fw=textbook
// Act 2: ?act=2&prec=mixed&batch=32&ckpt=every&k=4&dev=v100-sxm2-32gb&workers=8&prefetch=1&depth=2&pin=1&replay=1&units=gb
// Act 3: ?act=3&gpus=8&strategy=zero3&net=nvlink4&batch=1&dev=rtx4060-laptop-8gb&prec=mixed&opt=adam&ckpt=full&units=gb
import {
  OPTIMIZERS, PRECISIONS, BATCH_SIZES, UNIT_IDS, COMPONENT_KEYS, CUSTOM_DEVICE,
  CUSTOM_CAPACITY_GB, EVERY_K, PRECISIONS2, BATCH_SIZES2, DEVICES2, WORKERS, PREFETCH_DEPTH, FRAMEWORKS, frameworkOf,
} from './scenario.js';
import { wordList } from '../format/format.js';

// Control keys the flags can name; each is one control (or group) in the UI.
export const CONTROL_KEYS = ['opt', 'prec', 'batch', 'ckpt', 'dev', 'units', 'replay', 'comp', 'fw', 'workers', 'prefetch', 'pin', 'gpus', 'strategy', 'net'];
const CKPT_FROM_PARAM = { none: 'none', selective: 'selective', full: 'full', every: 'every_k' };
const CKPT_TO_PARAM = { none: 'none', selective: 'selective', full: 'full', every_k: 'every' };
// Parameters that belong to one act's instrument only.
const ACT1_ONLY = ['opt', 'cap', 'off', 'fw'];
const ACT2_ONLY = ['workers', 'prefetch', 'depth', 'pin'];
const ACT3_ONLY = ['gpus', 'strategy', 'net'];
// What a link to each act cannot set: the other acts' own knobs (Act 3 has no custom GPU, ledger
// components, framework or Chapter replay).
const FOREIGN = { 1: [...ACT2_ONLY, ...ACT3_ONLY], 2: [...ACT1_ONLY, ...ACT3_ONLY], 3: [...ACT2_ONLY, 'cap', 'off', 'fw', 'replay'] };

const list = (items) => items.join(', ');
// The choices a value must be one of: "gb or gib", "fp32, mixed, fp16 or bf16".
const choices = (items) => wordList(items, 'or');
// Values are echoed in messages; a very long one is cut so the notice stays readable, and invisible
// characters (controls, zero-width and direction marks such as U+202E, which would reverse the rest
// of the notice) are shown by their code instead.
const MAX_ECHO = 40;
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const visible = (v) => v.replace(INVISIBLE, (c) => `[U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
const echo = (v) => visible(v.length > MAX_ECHO ? `${v.slice(0, MAX_ECHO)}… (${v.length} characters)` : v);
// Act 3's URL module (act3-url.js: its knobs' parse and serialize) comes with Act 3's code, like the
// workbench's: boot.js loads it for a link that opens Act 3, and Act 3 sets it when it mounts. Until
// then an Act 3 address is ?act=3 with the shared knobs (units, hide, lock).
let act3Url = null;
export function useAct3Url(mod) { act3Url = mod; }
// Every parameter name the lab reads (a case variant of one is reported, other names are ignored).
const KNOWN = ['act', 'opt', 'prec', 'batch', 'ckpt', 'k', 'dev', 'cap', 'units', 'replay', 'off', 'fw', 'hide', 'lock',
  'workers', 'prefetch', 'depth', 'pin', ...ACT3_ONLY];
// The workbench's URL module (workbench-url.js: its parameters, parse and serialize). It comes with the
// workbench's code, not with the first load: boot.js loads it for a link that opens the workbench, and
// the workbench sets it when it mounts. Until then a workbench address is just ?act=workbench.
let workbenchUrl = null;
export function useWorkbenchUrl(mod) { workbenchUrl = mod; }
const wholeNumber = (v) => (/^\d{1,6}$/.test(v) ? Number(v) : NaN);

// The controls of `keys` an instructor has neither locked nor hidden: what a student can still explore.
export const openControls = (keys, { hide = [], lock = [] } = {}) => keys.filter((k) => !hide.includes(k) && !lock.includes(k));

function parseFlagList(params, name, errors) {
  const raw = params.get(name);
  if (raw === null || raw === '') return [];
  const out = [];
  for (const item of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (CONTROL_KEYS.includes(item)) { if (!out.includes(item)) out.push(item); } else {
      errors.push({ param: name, message: `${name}=${echo(raw)}: '${echo(item)}' is not a control name (known: ${list(CONTROL_KEYS)}); it was ignored.` });
    }
  }
  return out;
}

// The knobs both acts share the names of (precision, batch, checkpointing, device, replay), read
// into `config` with the act's own allowed values.
function parseShared(params, config, bad, { precisions, batches, devices, readK = true }) {
  if (params.has('prec')) {
    const v = params.get('prec');
    if (precisions.includes(v)) config.precision = v;
    else bad('prec', `not a precision here (use ${choices(precisions)})`);
  }
  if (params.has('batch')) {
    const n = wholeNumber(params.get('batch'));
    if (batches.includes(n)) config.batch_size = n;
    else bad('batch', `not one of the batch sizes ${list(batches.map(String))}`);
  }
  if (params.has('ckpt')) {
    const v = params.get('ckpt');
    if (Object.hasOwn(CKPT_FROM_PARAM, v)) config.checkpointing = CKPT_FROM_PARAM[v];
    else bad('ckpt', `not a checkpointing scheme (use ${choices(Object.keys(CKPT_FROM_PARAM))})`);
  }
  if (params.has('k') && readK) { // Act 2 reads k itself (dependent(), below)
    const n = wholeNumber(params.get('k'));
    if (params.get('ckpt') !== 'every') bad('k', 'the checkpoint interval only applies with ckpt=every');
    else if (n >= EVERY_K.min && n <= EVERY_K.max) config.every_k = n;
    else bad('k', `the checkpoint interval must be a whole number of layers from ${EVERY_K.min} to ${EVERY_K.max}`);
  }
  if (params.has('dev')) {
    const v = params.get('dev');
    if (devices.includes(v)) config.device = v;
    else bad('dev', `not a device here (use ${choices(devices)})`);
  }
  if (params.has('replay')) {
    const v = params.get('replay');
    if (v === '1' || v === '0') config.replay = v === '1';
    else bad('replay', 'use replay=1 (chapter numbers on) or replay=0 (off)');
  }
}

function parseAct1(params, config, bad, errors, deviceIds, current = null) {
  parseShared(params, config, bad, { precisions: PRECISIONS, batches: BATCH_SIZES, devices: [...deviceIds, CUSTOM_DEVICE] });
  if (params.has('opt')) {
    const v = params.get('opt');
    if (OPTIMIZERS.includes(v)) config.optimizer = v;
    else bad('opt', `not an optimizer (use ${choices(OPTIMIZERS)})`);
  }
  if (params.has('cap')) {
    const v = params.get('cap');
    const n = /^\d{1,4}(\.\d{1,3})?$/.test(v) ? Number(v) : NaN;
    if (params.get('dev') !== CUSTOM_DEVICE) bad('cap', 'a capacity only applies with dev=custom');
    else if (n >= CUSTOM_CAPACITY_GB.min && n <= CUSTOM_CAPACITY_GB.max) config.custom_capacity_gb = n;
    else bad('cap', `the custom device capacity must be a number of GB from ${CUSTOM_CAPACITY_GB.min} to ${CUSTOM_CAPACITY_GB.max}`);
  }
  if (params.has('fw')) {
    const v = params.get('fw');
    if (FRAMEWORKS.includes(v)) config.framework = v;
    else bad('fw', `not a framework (use fw=textbook for the chapter's layout or fw=pytorch for PyTorch defaults)`);
  }
  // PyTorch defaults have no checkpointing and no Chapter replay (the engine refuses both there). A link
  // without fw= keeps the stored framework, so a stored PyTorch mode is judged the same way, and said.
  const storedPytorch = !params.has('fw') && current && current.framework === 'pytorch';
  if (config.framework === 'pytorch' || storedPytorch) {
    const why = storedPytorch ? 'your saved settings use PyTorch defaults (add fw=textbook to the link for the chapter’s layout)' : 'not fw=pytorch';
    if (config.checkpointing && config.checkpointing !== 'none') {
      errors.push({ param: 'ckpt', message: `ckpt=${echo(params.get('ckpt'))}: checkpointing is not available with PyTorch defaults (the engine's PyTorch model has none)${storedPytorch ? `, and ${why}` : ''}, so it is off.` });
    }
    if (config.replay) errors.push({ param: 'replay', message: `replay=1: Chapter replay uses the textbook layout, ${storedPytorch ? `but ${why}` : 'not fw=pytorch'}, so it is off.` });
    config.checkpointing = 'none';
    config.replay = false;
    delete config.every_k;
  }
  if (params.has('off')) {
    const raw = params.get('off');
    const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
    const good = items.filter((k) => COMPONENT_KEYS.includes(k));
    const unknown = items.filter((k) => !COMPONENT_KEYS.includes(k));
    config.hidden_components = [...new Set(good)];
    if (unknown.length) {
      errors.push({ param: 'off', message: `off=${echo(raw)}: ${list(unknown.slice(0, 4).map((k) => `'${echo(k)}'`))} not a ledger component (known: ${list(COMPONENT_KEYS)}); ignored.` });
    }
  }
}

// A knob that only means something beside another (k beside ckpt=every, depth beside prefetch=1) is
// judged against the other knob's effective value: the link's if it sets it validly, else the stored
// one (`current`); when neither is known the value is kept for when it applies. The range is checked
// first, so an out-of-range value is reported as that whatever the other knob says.
function dependent(params, config, bad, { name, key, range, what, unit, needsKey, needsValue, current, needsWords, offWords }) {
  if (!params.has(name)) return;
  const n = wholeNumber(params.get(name));
  if (!(n >= range.min && n <= range.max)) {
    bad(name, `${what} must be a whole number of ${unit} from ${range.min} to ${range.max}`);
    return;
  }
  const effective = Object.hasOwn(config, needsKey) ? config[needsKey] : current ? current[needsKey] : undefined;
  if (effective === undefined || effective === needsValue) config[key] = n;
  else bad(name, `${what} only applies with ${needsWords}, and ${offWords}`);
}

function parseAct2(params, config, bad, current) {
  parseShared(params, config, bad, { precisions: PRECISIONS2, batches: BATCH_SIZES2, devices: DEVICES2, readK: false });
  dependent(params, config, bad, { name: 'k', key: 'every_k', range: EVERY_K, what: 'the checkpoint interval', unit: 'layers',
    needsKey: 'checkpointing', needsValue: 'every_k', needsWords: 'ckpt=every', offWords: 'checkpointing is not every k layers here', current });
  if (params.has('workers')) {
    const n = wholeNumber(params.get('workers'));
    if (n >= WORKERS.min && n <= WORKERS.max) config.data_workers = n;
    else bad('workers', `the number of data-loader workers must be a whole number from ${WORKERS.min} to ${WORKERS.max}`);
  }
  const onOff = (name, key, what) => {
    if (!params.has(name)) return;
    const v = params.get(name);
    if (v === '1' || v === '0') config[key] = v === '1';
    else bad(name, `use ${name}=1 (${what} on) or ${name}=0 (off)`);
  };
  onOff('prefetch', 'prefetch', 'prefetching');
  onOff('pin', 'pinned_memory', 'pinned memory');
  dependent(params, config, bad, { name: 'depth', key: 'prefetch_depth', range: PREFETCH_DEPTH, what: 'the prefetch depth', unit: 'batches',
    needsKey: 'prefetch', needsValue: true, needsWords: 'prefetch=1', offWords: 'prefetching is off here', current });
}

// search: a query string ('?a=b' or 'a=b') or URLSearchParams. deviceIds: the catalog's device ids.
// availableActs: act ids that can be shown (numbers, and 'measure' for the panel beside the acts).
// current: the stored state ({ config2 }), so that Act 2's k and depth are judged against the stored
// checkpointing and prefetch when the link does not set them.
// Returns { act, config, config2, hide, lock, errors, hasConfig }: config holds the Act 1 knobs the
// URL set validly (and `units`, which both acts share), config2 the Act 2 knobs.
export function parseUrlState(search, { deviceIds = [], modelIds = [], availableActs = [1], current = null } = {}) {
  const params = search instanceof URLSearchParams ? search : new URLSearchParams(search);
  const config = {};
  const config2 = {};
  const config3 = {};
  const errors = [];
  const kept = 'that setting was left as it was.';
  const rejected = new Set();

  // A parameter given more than once with different values is ambiguous: none of them is used (the
  // same value repeated means one thing and is used).
  const known = workbenchUrl ? [...KNOWN, ...workbenchUrl.WORKBENCH_PARAMS] : KNOWN;
  const seen = new Map();
  for (const [name, value] of params) seen.set(name, [...(seen.get(name) || []), value]);
  for (const [name, all] of seen) if (new Set(all).size === 1) seen.set(name, [all[0]]);
  for (const [name, values] of seen) {
    if (values.length < 2 || !known.includes(name)) continue; // a name the lab does not read is its reader's (embed.html's parentOrigin)
    rejected.add(name);
    errors.push({ param: name, message: `${name} is given ${values.length} different values (${list(values.slice(0, 4).map((v) => `${name}=${echo(v)}`))}${values.length > 4 ? ', …' : ''}); none of them was used, so that setting was left as it was.` });
  }
  const usable = new URLSearchParams();
  for (const [name, values] of seen) if (values.length === 1) usable.set(name, values[0]);
  const bad = (param, message) => errors.push({ param, message: `${param}=${echo(usable.get(param))}: ${message}; ${kept}` });
  for (const name of usable.keys()) {
    const lower = name.toLowerCase();
    if (lower !== name && known.includes(lower)) {
      errors.push({ param: name, message: `${echo(name)}=${echo(usable.get(name))}: parameter names are lower-case (did you mean ${lower}?); it was ignored.` });
    }
  }

  let act = null;
  if (usable.has('act')) {
    const raw = usable.get('act');
    const n = /^\d{1,3}$/.test(raw) ? Number(raw) : raw; // acts are numbered; panels beside them are named
    if (availableActs.includes(n)) act = n;
    else if (Number.isInteger(n) && n >= 1 && n <= 3) {
      errors.push({ param: 'act', message: `Act ${n} is not available yet, so Act ${availableActs[0]} is shown.` });
    } else {
      // Names are lower-case like every value here ("ledger", not "LEDGER"); the page opens where the student was.
      const hint = typeof n === 'string' && availableActs.includes(n.toLowerCase()) ? ` (did you mean act=${n.toLowerCase()}?)` : '';
      errors.push({ param: 'act', message: `act=${echo(raw)}: not a part of this lab${hint}; it can be ${choices(availableActs.map(String))}, so the lab opens where you were last (Act 1 the first time).` });
    }
  }
  const isAct2 = act === 2;
  let workbench = null;
  if (act === 'workbench' && workbenchUrl) { // the workbench reads its own parameters (workbench-url.js); the acts' are not its
    for (const name of [...ACT1_ONLY, ...ACT2_ONLY, 'dev', 'replay']) if (usable.has(name) && !workbenchUrl.WORKBENCH_PARAMS.includes(name)) bad(name, 'a setting of Act 1 or Act 2, not of the workbench');
    const wb = workbenchUrl.parseWorkbenchParams(usable, { modelIds, deviceIds, current: current && current.workbench ? current.workbench : null, echo });
    workbench = wb.workbench;
    errors.push(...wb.errors);
  } else if (act !== 'workbench') {
    const foreign = FOREIGN[act === 2 || act === 3 ? act : 1];
    for (const name of foreign) {
      if (usable.has(name)) bad(name, `a setting of ${ACT3_ONLY.includes(name) ? 'Act 3' : ACT2_ONLY.includes(name) ? 'Act 2' : 'Act 1'}, not of the part of the lab this link opens`);
    }
    const scoped = new URLSearchParams([...usable].filter(([name]) => !foreign.includes(name)));
    if (act === 3) {
      if (act3Url) act3Url.parseAct3(scoped, config3, bad, current && current.config3 ? current.config3 : null, { parseShared, dependent, wholeNumber, choices, list });
    }
    else if (isAct2) parseAct2(scoped, config2, bad, current && current.config2 ? current.config2 : null);
    else parseAct1(scoped, config, bad, errors, deviceIds, current && current.config ? current.config : null);
  }
  if (usable.has('units')) {
    const v = usable.get('units');
    if (UNIT_IDS.includes(v)) config.units = v;
    else bad('units', `units must be ${choices(UNIT_IDS)}`);
  }
  const hide = parseFlagList(usable, 'hide', errors);
  const lock = parseFlagList(usable, 'lock', errors);
  return {
    act, config, config2, config3, workbench, hide, lock, errors,
    hasConfig: Object.keys(config).length > 0 || Object.keys(config2).length > 0 || Object.keys(config3).length > 0 || workbench !== null,
  };
}

// The query string for a state (always the whole configuration of the act shown, so a copied URL
// reproduces it). Pass config2 for Act 2.
export function serializeUrlState({ act = 1, config, config2 = null, config3 = null, workbench = null, hide = [], lock = [] }) {
  if (act === 'workbench') {
    if (workbenchUrl) return workbenchUrl.serializeWorkbench(workbench, { units: config.units, hide, lock });
    return withFlags('?act=workbench', { hide, lock });
  }
  const p = new URLSearchParams();
  p.set('act', String(act));
  if (act === 3) {
    if (act3Url) act3Url.serializeAct3(p, config3, CKPT_TO_PARAM);
    p.set('units', config.units);
  } else if (act === 2 && config2) {
    p.set('prec', config2.precision);
    p.set('batch', String(config2.batch_size));
    p.set('ckpt', CKPT_TO_PARAM[config2.checkpointing]);
    if (config2.checkpointing === 'every_k') p.set('k', String(config2.every_k));
    p.set('dev', config2.device);
    p.set('workers', String(config2.data_workers));
    p.set('prefetch', config2.prefetch ? '1' : '0');
    if (config2.prefetch) p.set('depth', String(config2.prefetch_depth));
    p.set('pin', config2.pinned_memory ? '1' : '0');
    p.set('replay', config2.replay ? '1' : '0');
    p.set('units', config.units);
  } else {
    p.set('opt', config.optimizer);
    p.set('prec', config.precision);
    p.set('batch', String(config.batch_size));
    p.set('ckpt', CKPT_TO_PARAM[config.checkpointing]);
    if (config.checkpointing === 'every_k') p.set('k', String(config.every_k));
    p.set('dev', config.device);
    if (config.device === CUSTOM_DEVICE) p.set('cap', String(config.custom_capacity_gb));
    p.set('units', config.units);
    p.set('replay', config.replay ? '1' : '0');
    p.set('fw', frameworkOf(config));
    // Always written (empty: nothing hidden), so a shared link also un-hides what the receiver had hidden.
    p.set('off', (config.hidden_components || []).join(','));
  }
  if (hide.length) p.set('hide', hide.join(','));
  if (lock.length) p.set('lock', lock.join(','));
  return `?${p.toString().replace(/%2C/g, ',')}`;
}

// A link inside the lab to another part of it (`?act=2`, `?act=ledger`) with the instructor's hide
// and lock lists added, so moving between the acts keeps them (walk 8: they were dropped, and the
// locked controls opened). A link that names its own hide or lock keeps them; other links unchanged.
export function withFlags(href, { hide = [], lock = [] } = {}) {
  if (typeof href !== 'string' || !href.startsWith('?') || (!hide.length && !lock.length)) return href;
  const p = new URLSearchParams(href);
  if (!p.has('act') || p.has('hide') || p.has('lock')) return href;
  if (hide.length) p.set('hide', hide.join(','));
  if (lock.length) p.set('lock', lock.join(','));
  return `?${p.toString().replace(/%2C/g, ',')}`;
}

// The part of the lab an address names (`?act=2`): one of `available` (ids as in acts/index.js), or
// null when there is none, or more than one. Back and Forward switch to it (embed/boot.js).
export function actOf(search, available) {
  const values = new URLSearchParams(search).getAll('act');
  if (values.length !== 1) return null;
  const found = available.find((id) => String(id) === values[0]);
  return found === undefined ? null : found;
}
