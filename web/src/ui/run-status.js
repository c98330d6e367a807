// Run controls for a training run: a start button, a Cancel button, a native <progress> and a status
// line that is a polite live region. Progress text is throttled (screen readers would otherwise hear
// every chunk); start, finish and cancel are announced at once. Focus follows the enabled button so
// keyboard users are never left on a disabled one. The caller decides what a run is.
import { h, uid, setText } from './dom.js';

const THROTTLE_MS = 1000;

export function createRunStatus({ startLabel, progressLabel, onStart, onCancel, className = '' }) {
  const progressId = uid('progress');
  const start = h('button', { type: 'button', class: 'btn btn--primary', text: startLabel, onclick: () => onStart() });
  const cancel = h('button', { type: 'button', class: 'btn', text: 'Cancel', disabled: true, onclick: () => onCancel() });
  const progress = h('progress', { id: progressId, max: 1, value: 0 });
  // What is seen follows the bar at once; what a screen reader hears (a separate live region) is
  // throttled, so the text never lags the bar and the reader is not flooded.
  const text = h('p', { class: 'run-status__text', 'aria-hidden': 'true' });
  const live = h('p', { class: 'visually-hidden run-status__live', role: 'status', 'aria-live': 'polite' });
  const el = h('div', { class: `run-status ${className}`.trim(), 'data-state': 'idle' },
    h('div', { class: 'run-status__buttons' }, start, cancel),
    h('div', { class: 'run-status__progress' }, h('label', { for: progressId, text: progressLabel }), progress),
    text, live);
  let lastText = 0;
  let pending = null;
  let timer = null;

  const announce = (t) => { clearTimeout(timer); timer = null; pending = null; lastText = performance.now(); setText(live, t); };
  const say = (t) => { setText(text, t); announce(t); };
  const sayThrottled = (t) => {
    setText(text, t);
    const wait = THROTTLE_MS - (performance.now() - lastText);
    if (wait <= 0) { announce(t); return; }
    pending = t;
    if (!timer) timer = setTimeout(() => { timer = null; if (pending !== null) announce(pending); }, wait);
  };

  return {
    el,
    startButton: start,
    cancelButton: cancel,
    // Running: start disabled, Cancel enabled (and focused if the start button had focus).
    running(message) {
      const hadFocus = start.getRootNode().activeElement === start; // the document, or the element's shadow root
      el.dataset.state = 'running';
      el.dataset.done = '0';
      start.disabled = true;
      cancel.disabled = false;
      progress.removeAttribute('value'); // indeterminate until the first step
      if (hadFocus) cancel.focus();
      say(message);
    },
    progress(done, total, message) {
      progress.max = Math.max(1, total);
      progress.value = done;
      el.dataset.done = String(done);
      sayThrottled(message);
    },
    message: (t) => say(t),
    // Idle again with a final message (announced at once).
    idle(message, state = 'idle') {
      const hadFocus = cancel.getRootNode().activeElement === cancel || document.activeElement === document.body;
      el.dataset.state = state;
      start.disabled = false;
      cancel.disabled = true;
      if (!progress.hasAttribute('value')) progress.value = 0;
      if (hadFocus) start.focus();
      say(message);
    },
    // Another run (elsewhere on the page) is in progress: this one cannot start meanwhile.
    blocked(isBlocked) { if (el.dataset.state !== 'running') start.disabled = isBlocked; },
  };
}
