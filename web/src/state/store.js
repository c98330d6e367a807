// The one store: a plain object shaped like schema/lab-state.schema.json (versioned), with migrations
// from older shapes and persistence to a Storage-like object. When storage is missing or throws
// (sandboxed or cross-site iframes), the lab keeps working in memory and `status().persistent` is false.
// DOM-free: main.js hands in window.localStorage (or null). Tested in tests/web/unit/store.test.mjs.
import schema from './schema/lab-state.schema.json' with { type: 'json' };
import { validate } from './schema/validate.js';
import { DEFAULT_CONFIG, DEFAULT_CONFIG2, normalizeConfig, normalizeConfig2 } from './scenario.js';

export const SCHEMA_VERSION = 2;
export const LAB_ID = 'lab08-model-train';
export const STORAGE_KEY = 'lab08-model-train/state';
export { schema as LAB_STATE_SCHEMA };

export function defaultState() {
  return {
    schema_version: SCHEMA_VERSION,
    lab_id: LAB_ID,
    current_act: 1,
    config: normalizeConfig(DEFAULT_CONFIG),
    config2: normalizeConfig2(DEFAULT_CONFIG2),
    acts: {
      act1: { prediction: null, explored: false, revealed: false, reflection: null, completed: false },
      act2: defaultAct2(),
    },
  };
}

export function defaultAct2() {
  return {
    prediction: null,
    explored: false,
    revealed: false,
    design: { regime_reached: false, best: null },
    laptop: { moves: [], fit_achieved: false, floor_bytes: null, finished: false },
    reflection_fix: null,
    reflection_ckpt: null,
    completed: false,
  };
}

export function validateState(state) {
  return validate(schema, state);
}

const configSchema = schema.properties.config.properties;
const act1Schema = schema.properties.acts.properties.act1;
// Version 1's act-1 record: version 2 only added the optional `explored`.
const act1SchemaV1 = {
  ...act1Schema,
  properties: Object.fromEntries(Object.entries(act1Schema.properties).filter(([k]) => k !== 'explored')),
};

// MIGRATIONS[n] turns a version-n state into version n+1. Version 0 is any unversioned object (the
// pre-release prototype kept loose fields): keep each config field and the act-1 record that still
// validate on their own, drop everything else.
export const MIGRATIONS = {
  0(old) {
    const fresh = defaultState();
    const next = { schema_version: 1, lab_id: LAB_ID, current_act: 1, config: fresh.config,
      acts: { act1: { prediction: null, revealed: false, reflection: null, completed: false } } };
    const cfg = old && typeof old.config === 'object' && old.config ? old.config : {};
    for (const [key, sub] of Object.entries(configSchema)) {
      if (key in cfg && validate(sub, cfg[key]).length === 0) next.config[key] = cfg[key];
    }
    if (Number.isInteger(old.current_act) && old.current_act >= 1 && old.current_act <= 2) next.current_act = old.current_act;
    const act1 = old.acts && old.acts.act1;
    if (act1 && validate(act1SchemaV1, act1).length === 0) next.acts.act1 = act1;
    return next;
  },
  // Version 1 had Act 1 only: add Act 2's configuration and record, and the act-1 `explored` flag
  // (true when the student had already revealed: the reveal used to need no exploring).
  1(old) {
    const next = defaultState();
    const act1 = { ...next.acts.act1, ...(old.acts && old.acts.act1) };
    act1.explored = Boolean(act1.explored || act1.revealed);
    return { ...next, current_act: old.current_act, config: old.config, acts: { ...next.acts, act1 } };
  },
};

// Returns { state, note, discarded? } where note (or null) says what could not be kept, in words for the
// student, and discarded is true when the saved state could not be used at all (the store sets it aside).
export function migrate(raw) {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { state: defaultState(), note: 'Saved progress was not readable, so the lab started fresh.', discarded: true };
  }
  let version = raw.schema_version === undefined ? 0 : raw.schema_version;
  if (!Number.isInteger(version) || version < 0) {
    return { state: defaultState(), note: 'Saved progress had an unknown format, so the lab started fresh.', discarded: true };
  }
  if (version > SCHEMA_VERSION) {
    return { state: defaultState(), note: 'Saved progress came from a newer version of the lab, so this page started fresh.', discarded: true };
  }
  let state = raw;
  let note = null;
  try {
    while (version < SCHEMA_VERSION) {
      state = MIGRATIONS[version](state);
      version += 1;
      note = 'Saved progress from an older version of the lab was carried over.';
    }
  } catch {
    return { state: defaultState(), note: 'Saved progress from an older version of the lab could not be read, so the lab started fresh.', discarded: true };
  }
  const errors = validateState(state);
  if (errors.length) {
    return { state: defaultState(), note: `Saved progress did not match the lab's format (${errors[0]}), so the lab started fresh.`, discarded: true };
  }
  return { state, note };
}

// `defer(fn)` schedules the write to storage (default: at once); the browser passes a short delay so
// a burst of slider moves costs one write. `flush()` writes a pending change now (call it on pagehide).
// Saved progress this version cannot use (newer, corrupt) is copied to its own key before anything is
// written, so a newer lab can still read it later: the first write would otherwise replace it.
export function setAside(storage, key, text, note) {
  const aside = `${key}.set-aside-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    storage.setItem(aside, text);
    return `${note} The saved copy was kept in this browser's storage under “${aside}”.`;
  } catch {
    return `${note} The saved copy could not be kept (the browser's storage is full or refused it).`;
  }
}

// Why a write failed after start-up: 'full' (the storage quota) or 'refused' (storage revoked, blocked).
export function saveFailure(err) {
  return err && err.name === 'QuotaExceededError' ? 'full' : 'refused';
}

export function createStore({ storage = null, key = STORAGE_KEY, defer = null } = {}) {
  let persistent = Boolean(storage);
  let failed = null; // set by a write that failed: saveFailure()'s answer
  const watchers = new Set();
  const notes = [];
  let state = defaultState();
  if (storage) {
    try {
      const text = storage.getItem(key);
      if (text !== null) {
        let raw = null;
        try { raw = JSON.parse(text); } catch { raw = null; }
        const out = migrate(raw);
        state = out.state;
        if (out.discarded) notes.push(setAside(storage, key, text, out.note));
        else if (out.note) notes.push(out.note);
      }
    } catch {
      persistent = false;
    }
  }
  const listeners = new Set();

  let writePending = false;
  function write() {
    writePending = false;
    if (!persistent) return;
    try {
      storage.setItem(key, JSON.stringify(state));
    } catch (err) {
      // The state stays in memory; the page is told at once (watchStatus), so nothing is lost silently.
      persistent = false;
      failed = saveFailure(err);
      for (const fn of watchers) fn(status());
    }
  }
  const status = () => ({ persistent, failed, notes: [...notes] });
  function persist() {
    if (!persistent) return;
    if (!defer) { write(); return; }
    if (!writePending) { writePending = true; defer(() => { if (writePending) write(); }); }
  }

  return {
    getState: () => state,
    // updater(state) returns the next state (a new object); listeners get (next, previous).
    update(updater) {
      const prev = state;
      const next = updater(prev);
      if (next === prev) return;
      state = next;
      persist();
      for (const fn of listeners) fn(state, prev);
    },
    subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    // persistent: saved to storage; failed: null, or why saving stopped after start-up (then
    // persistent is false). watchStatus(fn) calls fn(status()) when saving stops.
    status,
    watchStatus(fn) { watchers.add(fn); return () => watchers.delete(fn); },
    flush() { if (writePending) write(); },
    reset() {
      const prev = state;
      // The workbench's choices are settings too (state.workbench, optional): they stay.
      state = { ...defaultState(), config: state.config, config2: state.config2, ...(state.workbench ? { workbench: state.workbench } : {}),
        ...(state.config3 ? { config3: state.config3 } : {}) };
      persist();
      for (const fn of listeners) fn(state, prev);
    },
  };
}

// Small immutable helpers for the act records.
export function withConfig(state, patch) {
  return { ...state, config: normalizeConfig({ ...state.config, ...patch }) };
}

export function withAct1(state, patch) {
  return { ...state, acts: { ...state.acts, act1: { ...state.acts.act1, ...patch } } };
}

export function withConfig2(state, patch) {
  return { ...state, config2: normalizeConfig2({ ...state.config2, ...patch }) };
}

export function withAct2(state, patch) {
  return { ...state, acts: { ...state.acts, act2: { ...state.acts.act2, ...patch } } };
}

// The workbench's choices (optional; null or absent: never opened). patch: { scenario, gpu_unit } or
// null (no change).
export function withWorkbench(state, patch) {
  if (!patch) return state;
  return { ...state, workbench: { scenario: null, gpu_unit: 'gb', ...(state.workbench || {}), ...patch } };
}

// Act 3 (optional until opened: a state saved before it has neither): its record (its knobs' helper,
// withConfig3, is in act3-url.js, loaded with the act).
export const defaultAct3 = () => ({ prediction: null, explored: false, revealed: false, reflection_dp: null, reflection_ceiling: null, result: null, completed: false });

export function withAct3(state, patch) {
  return { ...state, acts: { ...state.acts, act3: { ...(state.acts.act3 || defaultAct3()), ...patch } } };
}
