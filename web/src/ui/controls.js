// Act 1's control panel: native inputs only (radios, range, selects, number fields, checkboxes), each
// labelled and keyboard-operable. Instructor flags hide a control or lock it (disabled, with a visible
// reason). It reports changes as config patches; the act decides what they mean.
import { whyDetails } from './why-details.js';
import { h, uid, setText } from './dom.js';
import { formatCount } from '../format/format.js';
import {
  OPTIMIZERS, PRECISIONS, BATCH_SIZES, CHECKPOINTING, LABELS, CUSTOM_DEVICE, CUSTOM_CAPACITY_GB,
  EVERY_K, REPLAY_STEPS, REPLAY_DEVICE, FRAMEWORKS, frameworkOf, controlsOff,
} from '../state/scenario.js';

// A device select shows the closed choice in one line, so at phone width the catalog's full names
// ("NVIDIA GeForce RTX 4060 Laptop 8 GB") were cut off. The options drop the maker's prefix; the full
// name is in the device note and the banners.
export const deviceOptionText = (name) => name.replace(/^NVIDIA (GeForce )?/, '');

const LOCK_NOTE = 'Locked by your instructor.';

// The batch slider's spoken value: "1 sequence", "8 sequences".
export const batchValueText = (v) => formatCount(v, 'sequence');

// The "checkpoint every k layers" number input of both acts, with its error line: a value that is not
// a whole number of layers in range is named there and marked aria-invalid, and nothing changes.
// onValid(k) on a good value; reset(k) shows k and clears the error (the settings changed elsewhere).
export function everyKInput(onValid) {
  const id = uid('k');
  const error = h('p', { class: 'field-error', id: uid('k-err'), hidden: true });
  const input = h('input', {
    type: 'number', id, min: EVERY_K.min, max: EVERY_K.max, step: 1, inputmode: 'numeric', 'aria-describedby': error.id,
    onchange: () => {
      const n = Number(input.value);
      const ok = Number.isInteger(n) && n >= EVERY_K.min && n <= EVERY_K.max;
      error.hidden = ok;
      input.setAttribute('aria-invalid', ok ? 'false' : 'true');
      if (ok) onValid(n);
      else error.textContent = `Enter a whole number of layers from ${EVERY_K.min} to ${EVERY_K.max}.`;
    },
  });
  const reset = (k) => { input.value = String(k); error.hidden = true; input.setAttribute('aria-invalid', 'false'); };
  return { input, error, id, reset };
}

function radioGroup(key, legend, name, values, labels, onPick) {
  const inputs = new Map();
  const labelEls = new Map();
  const fs = h('fieldset', { class: 'control control--radios', 'data-control': key },
    h('legend', { text: legend }),
    values.map((v) => {
      const id = uid(`${name}-${v}`);
      const input = h('input', { type: 'radio', id, name, value: v, onchange: () => input.checked && onPick(v) });
      inputs.set(v, input);
      const label = h('label', { for: id, text: labels[v] });
      labelEls.set(v, label);
      return h('div', { class: 'radio' }, input, label);
    }));
  return {
    el: fs, set: (v) => { for (const [val, input] of inputs) input.checked = val === v; }, inputs: [...inputs.values()],
    setLabels: (next) => { for (const [val, label] of labelEls) setText(label, next[val]); },
  };
}

// replayText(units) and deviceText(config) return the notes under the replay switch and the device.
// frameworkText: { legend, note: {textbook, pytorch}, ckptReason, replayReason } for the framework
// switch; under PyTorch defaults checkpointing and Chapter replay are disabled with a visible reason.
// Each control is a part { el, set(value, config, text), inputs } built by a named function below;
// `locked` is the instructor's lock list as a Set (a lock also disables a control that the framework
// would leave on).
export function createControls({ devices, flags, onChange, onReplayStep, replayText = '', deviceText = null, frameworkText = null }) {
  const locked = new Set(flags.lock);
  const parts = {
    opt: radioGroup('opt', 'Optimizer', uid('opt'), OPTIMIZERS, LABELS.optimizer, (v) => onChange({ optimizer: v })),
    prec: radioGroup('prec', 'Precision', uid('prec'), PRECISIONS, LABELS.precision, (v) => onChange({ precision: v })),
    batch: batchControl(onChange),
    ckpt: checkpointControl(onChange, locked, frameworkText),
    dev: deviceControl(devices, onChange, locked, deviceText),
    replay: replayControl(onChange, onReplayStep, locked, replayText, frameworkText),
    fw: frameworkControl(onChange, frameworkText),
  };
  // The panel in a fixed order: hidden controls left out, locked ones disabled with the reason under them.
  const hidden = new Set(flags.hide);
  const el = h('div', { class: 'controls' });
  for (const key of ['opt', 'prec', 'batch', 'ckpt', 'dev', 'replay', 'fw']) {
    const part = parts[key];
    if (hidden.has(key)) continue;
    if (locked.has(key)) {
      for (const input of part.inputs) input.disabled = true;
      part.el.classList.add('control--locked');
      part.el.append(h('p', { class: 'control__note control__note--lock', text: LOCK_NOTE }));
    }
    el.append(part.el);
  }
  return {
    el,
    update(config) {
      const fw = frameworkOf(config);
      parts.fw.set(fw);
      parts.opt.set(config.optimizer);
      parts.prec.setLabels(fw === 'pytorch' ? LABELS.precisionPytorch : LABELS.precision);
      parts.prec.set(config.precision);
      parts.batch.set(config.batch_size);
      parts.ckpt.set(config.checkpointing, config);
      parts.dev.set(config.device, config);
      parts.replay.set(config.replay, config, replayText && replayText(config.units));
    },
  };
}

// Batch: a range over the allowed sizes (index), announced as the size itself.
function batchControl(onChange) {
  const batchId = uid('batch');
  const batchOut = h('output', { for: batchId, class: 'control__value' });
  const batch = h('input', {
    type: 'range', id: batchId, min: 0, max: BATCH_SIZES.length - 1, step: 1,
    oninput: () => onChange({ batch_size: BATCH_SIZES[Number(batch.value)] }),
  });
  return {
    el: h('div', { class: 'control control--range', 'data-control': 'batch' },
      h('label', { for: batchId }, 'Batch size (sequences of 1,024 tokens): ', batchOut), batch,
      h('div', { class: 'range-ticks', 'aria-hidden': 'true' }, BATCH_SIZES.map((b) => h('span', { text: String(b) })))),
    set: (v) => {
      batch.value = String(BATCH_SIZES.indexOf(v));
      batch.setAttribute('aria-valuetext', batchValueText(v));
      setText(batchOut, String(v));
    },
    inputs: [batch],
  };
}

// Checkpointing: a select, plus k when "every k layers"; off (with the reason) under PyTorch defaults.
function checkpointControl(onChange, locked, frameworkText) {
  const ckptId = uid('ckpt');
  const ckpt = h('select', { id: ckptId, onchange: () => onChange({ checkpointing: ckpt.value }) },
    CHECKPOINTING.map((c) => h('option', { value: c, text: LABELS.checkpointing[c] })));
  const { input: k, error: kErr, id: kId, reset: resetK } = everyKInput((n) => onChange({ every_k: n }));
  const kWrap = h('div', { class: 'control__sub' }, h('label', { for: kId, text: 'Checkpoint every k layers, k =' }), k, kErr);
  const ckptReason = h('p', { class: 'control__note control__note--off', id: uid('ckpt-off'), hidden: true, text: frameworkText ? frameworkText.ckptReason : '' });
  return {
    el: h('div', { class: 'control', 'data-control': 'ckpt' }, h('label', { for: ckptId, text: 'Activation checkpointing' }), ckpt, kWrap, ckptReason),
    set: (v, cfg) => {
      const off = controlsOff(cfg).includes('ckpt');
      ckptReason.hidden = !off;
      ckpt.disabled = off || locked.has('ckpt');
      if (off) ckpt.setAttribute('aria-describedby', ckptReason.id); else ckpt.removeAttribute('aria-describedby');
      ckpt.value = v;
      kWrap.hidden = v !== 'every_k';
      if (document.activeElement !== k) resetK(cfg.every_k);
    },
    inputs: [ckpt, k],
  };
}

// Device: catalog devices plus a custom capacity (short names: see deviceOptionText); pinned to the
// chapter's V100 under Chapter replay.
function deviceControl(devices, onChange, locked, deviceText) {
  const devId = uid('dev');
  const capId = uid('cap');
  const capErr = h('p', { class: 'field-error', id: uid('cap-err'), hidden: true });
  const dev = h('select', { id: devId, onchange: () => onChange({ device: dev.value }) },
    devices.map((d) => h('option', { value: d.id, text: deviceOptionText(d.name) })),
    h('option', { value: CUSTOM_DEVICE, text: 'Custom (H100-class)' }));
  const cap = h('input', {
    type: 'number', id: capId, min: CUSTOM_CAPACITY_GB.min, max: CUSTOM_CAPACITY_GB.max, step: 'any',
    inputmode: 'decimal', 'aria-describedby': capErr.id,
    onchange: () => {
      const n = Number(cap.value);
      const ok = cap.value !== '' && n >= CUSTOM_CAPACITY_GB.min && n <= CUSTOM_CAPACITY_GB.max;
      capErr.hidden = ok;
      cap.setAttribute('aria-invalid', ok ? 'false' : 'true');
      if (ok) onChange({ custom_capacity_gb: n });
      else setText(capErr, `Enter a capacity from ${CUSTOM_CAPACITY_GB.min} to ${CUSTOM_CAPACITY_GB.max} GB.`);
    },
  });
  const capWrap = h('div', { class: 'control__sub' }, h('label', { for: capId, text: 'Custom capacity (GB, 10^9 bytes)' }), cap, capErr);
  const replayPin = h('p', { class: 'control__note', text: 'Chapter replay runs on the chapter’s V100 32 GB.', hidden: true });
  const devNote = h('p', { class: 'control__note device-note' });
  return {
    el: h('div', { class: 'control', 'data-control': 'dev' }, h('label', { for: devId, text: 'Device' }), dev, capWrap, replayPin,
      whyDetails('Why this budget line?', devNote)),
    set: (v, cfg) => {
      dev.value = cfg.replay ? REPLAY_DEVICE : v;
      capWrap.hidden = v !== CUSTOM_DEVICE || cfg.replay;
      replayPin.hidden = !cfg.replay;
      if (deviceText) setText(devNote, deviceText(cfg));
      dev.disabled = controlsOff(cfg).includes('dev') || locked.has('dev');
      if (document.activeElement !== cap) { cap.value = String(cfg.custom_capacity_gb); capErr.hidden = true; cap.setAttribute('aria-invalid', 'false'); }
    },
    inputs: [dev, cap],
  };
}

// Chapter replay: a switch, and the walkthrough's three steps when it is on; off (with the reason)
// under PyTorch defaults.
function replayControl(onChange, onReplayStep, locked, replayText, frameworkText) {
  const replayId = uid('replay');
  const replayDesc = h('p', { class: 'control__note', id: uid('replay-desc'), text: replayText ? replayText('gb') : '' });
  const replay = h('input', { type: 'checkbox', id: replayId, role: 'switch', 'aria-describedby': replayDesc.id, onchange: () => onChange({ replay: replay.checked }) });
  const stepButtons = REPLAY_STEPS.map((s, i) => h('button', { type: 'button', class: 'btn btn--small', 'data-step': s.id, onclick: () => onReplayStep(s) }, `${i + 1}. ${s.label}`));
  const steps = h('div', { class: 'replay-steps', role: 'group', 'aria-label': 'The chapter’s walkthrough' }, stepButtons);
  const replayReason = h('p', { class: 'control__note control__note--off', id: uid('replay-off'), hidden: true, text: frameworkText ? frameworkText.replayReason : '' });
  return {
    el: h('div', { class: 'control control--switch', 'data-control': 'replay' },
      h('div', { class: 'switch' }, replay, h('label', { for: replayId, text: 'Chapter replay' })),
      whyDetails('What does replay change?', replayDesc), replayReason, steps),
    set: (v, cfg, text) => {
      const off = controlsOff(cfg).includes('replay');
      replayReason.hidden = !off;
      replay.disabled = off || locked.has('replay');
      replay.setAttribute('aria-describedby', off ? `${replayDesc.id} ${replayReason.id}` : replayDesc.id);
      replay.checked = v;
      steps.hidden = !v;
      if (text) setText(replayDesc, text);
      // The step whose settings are on the ledger now is pressed (none after any other change).
      REPLAY_STEPS.forEach((s, i) => {
        const on = v && Object.entries(s.config).every(([k, val]) => cfg[k] === val);
        stepButtons[i].setAttribute('aria-pressed', String(on));
      });
    },
    inputs: [replay, ...stepButtons],
  };
}

// Framework: Textbook layout (the chapter's counting) or PyTorch defaults (what PyTorch holds).
function frameworkControl(onChange, frameworkText) {
  const fwNote = h('p', { class: 'control__note', id: uid('fw-note') });
  const fw = radioGroup('fw', frameworkText ? frameworkText.legend : 'Framework', uid('fw'), FRAMEWORKS, LABELS.framework,
    (v) => onChange(v === 'pytorch' ? { framework: v, checkpointing: 'none', replay: false } : { framework: v }));
  fw.el.append(whyDetails('What does each count?', fwNote));
  for (const input of fw.inputs) input.setAttribute('aria-describedby', fwNote.id);
  const setFw = fw.set;
  fw.set = (v) => { setFw(v); if (frameworkText) setText(fwNote, frameworkText.note[v]); };
  return fw;
}
