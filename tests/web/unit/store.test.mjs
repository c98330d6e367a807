// Unit tests for web/src/state/store.js: defaults match the schema, persistence, storage that throws,
// migrations from unversioned (v0) states, and refusal of unreadable or newer states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore, defaultState, migrate, validateState, withConfig, withAct1, withConfig2, withAct2, SCHEMA_VERSION, STORAGE_KEY, MIGRATIONS, saveFailure } from '../../../web/src/state/store.js';

class MemoryStorage {
  constructor(init = {}) { this.data = new Map(Object.entries(init)); }
  getItem(k) { return this.data.has(k) ? this.data.get(k) : null; }
  setItem(k, v) { this.data.set(k, String(v)); }
  removeItem(k) { this.data.delete(k); }
}
class ThrowingStorage {
  getItem() { throw new DOMException('denied', 'SecurityError'); }
  setItem() { throw new DOMException('denied', 'SecurityError'); }
}

const answered = (s) => withAct1(s, { prediction: { choice: 'b', predicted_bytes: 6230444800, truth_bytes: 12460889600, error_ratio: 2, direction: 'under', answered_at: '2025-01-01T00:00:00.000Z' } });

test('the default state conforms to the lab-state schema', () => {
  assert.deepEqual(validateState(defaultState()), []);
  assert.equal(defaultState().schema_version, SCHEMA_VERSION);
});

test('updates persist and a new store reads them back', () => {
  const storage = new MemoryStorage();
  const a = createStore({ storage });
  a.update((s) => answered(withConfig(s, { batch_size: 8, units: 'gib' })));
  assert.equal(a.status().persistent, true);
  const b = createStore({ storage });
  assert.equal(b.getState().config.batch_size, 8);
  assert.equal(b.getState().acts.act1.prediction.choice, 'b');
  assert.deepEqual(validateState(b.getState()), []);
  assert.deepEqual(b.status().notes, []);
});

test('storage that throws leaves the store working in memory, and says so', () => {
  const store = createStore({ storage: new ThrowingStorage() });
  assert.equal(store.status().persistent, false);
  let seen = null;
  store.subscribe((s) => { seen = s; });
  store.update((s) => withConfig(s, { optimizer: 'sgd' }));
  assert.equal(store.getState().config.optimizer, 'sgd');
  assert.equal(seen.config.optimizer, 'sgd');
});

test('no storage at all is the same as storage that throws', () => {
  const store = createStore({ storage: null });
  assert.equal(store.status().persistent, false);
  store.update((s) => answered(s));
  assert.equal(store.getState().acts.act1.prediction.choice, 'b');
});

test('storage that starts failing on write keeps the state in memory and tells its watchers why, once', () => {
  const storage = new MemoryStorage();
  const store = createStore({ storage });
  assert.equal(store.status().failed, null);
  const told = [];
  store.watchStatus((st) => told.push(st));
  storage.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
  store.update((s) => answered(withConfig(s, { batch_size: 16 })));
  assert.equal(store.status().persistent, false);
  assert.equal(store.status().failed, 'full');
  assert.equal(store.getState().config.batch_size, 16);
  assert.equal(store.getState().acts.act1.prediction.choice, 'b', 'the prediction is kept in memory');
  store.update((s) => withConfig(s, { batch_size: 32 }));
  assert.deepEqual(told.map((st) => [st.persistent, st.failed]), [[false, 'full']], 'told once, when saving stopped');
  // A deferred write fails the same way; storage that is revoked (not full) is told apart.
  const revoked = new MemoryStorage();
  let pending = null;
  const later = createStore({ storage: revoked, defer: (fn) => { pending = fn; } });
  const unwatch = later.watchStatus((st) => told.push(st));
  revoked.setItem = () => { throw new DOMException('The operation is insecure.', 'SecurityError'); };
  later.update((s) => answered(s));
  assert.equal(later.status().failed, null, 'nothing written yet');
  pending();
  assert.equal(later.status().failed, 'refused');
  assert.equal(later.getState().acts.act1.prediction.choice, 'b');
  unwatch();
  assert.equal(told.length, 2);
});

test('saveFailure tells a full storage from one that refused', () => {
  assert.equal(saveFailure(new DOMException('x', 'QuotaExceededError')), 'full');
  assert.equal(saveFailure(new DOMException('x', 'SecurityError')), 'refused');
  assert.equal(saveFailure(new TypeError('x')), 'refused');
  assert.equal(saveFailure(undefined), 'refused');
});

test('an unversioned (v0) state keeps its valid config fields and act record', () => {
  const { explored, ...act1 } = answered(defaultState()).acts.act1; // v0 records had no `explored`
  const v0 = { config: { optimizer: 'sgd', batch_size: 32, precision: 'fp64', units: 'gib' }, current_act: 1, acts: { act1 }, junk: true };
  const { state, note } = migrate(v0);
  assert.deepEqual(validateState(state), []);
  assert.equal(state.config.optimizer, 'sgd');
  assert.equal(state.config.batch_size, 32);
  assert.equal(state.config.precision, 'fp32');
  assert.equal(state.config.units, 'gib');
  assert.equal(state.acts.act1.prediction.choice, 'b');
  assert.match(note, /older version/);
  assert.equal(typeof MIGRATIONS[0], 'function');
});

test('a v0 state with an invalid act record drops only that record', () => {
  const { state } = migrate({ config: { optimizer: 'momentum' }, acts: { act1: { prediction: 'c' } } });
  assert.equal(state.config.optimizer, 'momentum');
  assert.equal(state.acts.act1.prediction, null);
});

test('unreadable, invalid and newer states start fresh with a note', () => {
  for (const raw of [null, 42, [1, 2], { schema_version: -1 }, { schema_version: 'x' }]) {
    const { state, note } = migrate(raw);
    assert.deepEqual(state, defaultState());
    assert.ok(note);
  }
  const newer = migrate({ schema_version: SCHEMA_VERSION + 1 });
  assert.match(newer.note, /newer version/);
  const broken = migrate({ ...defaultState(), config: { ...defaultState().config, batch_size: 3 } });
  assert.match(broken.note, /batch_size/);
  assert.deepEqual(broken.state, defaultState());
});

test('corrupt JSON in storage starts fresh with a note instead of crashing', () => {
  const store = createStore({ storage: new MemoryStorage({ [STORAGE_KEY]: '{"schema_version": 1,' }) });
  assert.deepEqual(store.getState(), defaultState());
  assert.match(store.status().notes[0], /not readable/);
});

test('reset clears answers but keeps the configuration', () => {
  const store = createStore({ storage: new MemoryStorage() });
  store.update((s) => answered(withConfig(s, { device: 'rtx4060-laptop-8gb' })));
  store.reset();
  assert.equal(store.getState().acts.act1.prediction, null);
  assert.equal(store.getState().config.device, 'rtx4060-laptop-8gb');
});

test('an updater that returns the same state notifies nobody', () => {
  const store = createStore({});
  let calls = 0;
  store.subscribe(() => { calls += 1; });
  store.update((s) => s);
  assert.equal(calls, 0);
});

test('with a deferred writer a burst of updates costs one write, and flush writes at once', () => {
  const storage = new MemoryStorage();
  let writes = 0;
  const setItem = storage.setItem.bind(storage);
  storage.setItem = (k, v) => { writes += 1; setItem(k, v); };
  const queued = [];
  const store = createStore({ storage, defer: (fn) => queued.push(fn) });
  for (const b of [2, 4, 8, 16]) store.update((s) => withConfig(s, { batch_size: b }));
  assert.equal(queued.length, 1);
  assert.equal(writes, 0);
  store.flush();
  assert.equal(writes, 1);
  assert.equal(JSON.parse(storage.getItem(STORAGE_KEY)).config.batch_size, 16);
  queued[0]();
  assert.equal(writes, 1, 'the queued write finds nothing left to do');
  store.update((s) => withConfig(s, { batch_size: 32 }));
  assert.equal(queued.length, 2);
});

// A version-1 state as the lab stored it before Act 2 existed.
const v1State = () => ({
  schema_version: 1, lab_id: 'lab08-model-train', current_act: 1,
  config: { ...defaultState().config, optimizer: 'momentum', units: 'gib' },
  acts: { act1: { prediction: { choice: 'b', predicted_bytes: 6230444800, truth_bytes: 12460889600, error_ratio: 2, direction: 'under', answered_at: '2025-01-01T00:00:00.000Z' }, revealed: true, reflection: null, completed: false } },
});

test('a version-1 state migrates to version 2 keeping Act 1 and adding a fresh Act 2', () => {
  const { state, note } = migrate(v1State());
  assert.deepEqual(validateState(state), []);
  assert.equal(state.schema_version, 2);
  assert.equal(state.config.optimizer, 'momentum');
  assert.equal(state.acts.act1.prediction.choice, 'b');
  assert.equal(state.acts.act1.explored, true, 'a revealed Act 1 counts as explored');
  assert.deepEqual(state.acts.act2, defaultState().acts.act2);
  assert.deepEqual(state.config2, defaultState().config2);
  assert.match(note, /older version/);
});

test('a version-1 state without acts starts fresh with a note instead of throwing', () => {
  const { state, note } = migrate({ schema_version: 1, config: {} });
  assert.deepEqual(validateState(state), []);
  assert.match(note, /started fresh/);
});

test('Act 2 records and configuration persist', () => {
  const storage = new MemoryStorage();
  const a = createStore({ storage });
  a.update((s) => withAct2(withConfig2(s, { data_workers: 8, prefetch: true }), { revealed: true }));
  const b = createStore({ storage });
  assert.equal(b.getState().config2.data_workers, 8);
  assert.equal(b.getState().acts.act2.revealed, true);
  assert.deepEqual(validateState(b.getState()), []);
});

test('reset clears both acts but keeps both configurations', () => {
  const store = createStore();
  store.update((s) => withAct2(withConfig2(answered(s), { batch_size: 64 }), { revealed: true }));
  store.reset();
  assert.equal(store.getState().acts.act1.prediction, null);
  assert.equal(store.getState().acts.act2.revealed, false);
  assert.equal(store.getState().config2.batch_size, 64);
});

test('saved progress the lab cannot use is set aside under its own key before anything is written', () => {
  for (const text of ['{not json', JSON.stringify({ schema_version: 999, lab_id: 'lab08-model-train' }), '[1,2]']) {
    const storage = new MemoryStorage({ [STORAGE_KEY]: text });
    const store = createStore({ storage });
    const [note] = store.status().notes;
    assert.match(note, /kept in this browser's storage under “lab08-model-train\/state\.set-aside-/);
    const asideKey = [...storage.data.keys()].find((k) => k.startsWith(`${STORAGE_KEY}.set-aside-`));
    assert.equal(storage.getItem(asideKey), text, 'the unreadable text is kept as it was');
    store.update((s) => withConfig(s, { optimizer: 'sgd' }));
    assert.equal(storage.getItem(asideKey), text, 'and survives the first write');
    assert.equal(JSON.parse(storage.getItem(STORAGE_KEY)).config.optimizer, 'sgd');
  }
});

test('an older state that migrates is not set aside', () => {
  const storage = new MemoryStorage({ [STORAGE_KEY]: JSON.stringify({ config: { optimizer: 'sgd' } }) });
  createStore({ storage });
  assert.deepEqual([...storage.data.keys()], [STORAGE_KEY]);
});
