// Runs work that is not on screen right after a change (table twins, Math Peeks) once the next frame
// is painted and the main thread is idle (at most 100 ms later), so charts and banners paint first.
// Only the latest scheduled function runs. root[data-pending] is set meanwhile (e2e tests wait on it).
export function createAfterPaint(root) {
  let latest = null;
  const whenIdle = typeof requestIdleCallback === 'function'
    ? (fn) => requestIdleCallback(fn, { timeout: 100 }) : (fn) => setTimeout(fn, 0);
  return function schedule(fn) {
    latest = fn;
    if (root.dataset.pending) return;
    root.dataset.pending = 'true';
    requestAnimationFrame(() => whenIdle(() => {
      delete root.dataset.pending;
      const run = latest;
      latest = null;
      if (run) run();
    }));
  };
}

// Runs redraw in the next animation frame, once however many reports arrive before it. A redraw inside
// a ResizeObserver callback changes the size being observed, and browsers then report "ResizeObserver
// loop completed with undelivered notifications" as a page error (WebKit and Firefox do, to the page).
export function afterResize(owner, redraw) {
  if (owner.resizeFrame) return;
  owner.resizeFrame = requestAnimationFrame(() => { owner.resizeFrame = 0; redraw(); });
}
