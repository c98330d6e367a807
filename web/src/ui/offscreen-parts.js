// Parts of an act that are drawn before the next paint only while they are on screen (or within
// `margin` of it). A part that is out of view when its numbers change is drawn right after that
// paint instead (flush), or as soon as it scrolls into view, whichever comes first: the frame after
// an input then pays only for what the student can see (Act 2 at 1,280 px: the gauges sit below the
// step; at 390 px the bar and the timeline sit below the controls). Visibility comes from an
// IntersectionObserver (passed in, so the logic is tested without a browser); a part whose
// visibility is not known yet, or a page without the observer, is drawn at once. The observer
// reports after a frame, so a part scrolled in right after a change showed its old numbers for one
// frame (walk 12): any scroll while something is kept draws it all before that frame is painted.
export function createOffscreenParts({ Observer = globalThis.IntersectionObserver, margin = '200px', scroller = globalThis } = {}) {
  const onScreen = new Map(); // element → whether it was in view at the last report
  const pending = new Map(); // element → the latest draw it has not had yet
  const run = (el) => {
    const draw = pending.get(el);
    pending.delete(el);
    if (draw) draw();
  };
  const observer = typeof Observer === 'function' ? new Observer((entries) => {
    for (const e of entries) {
      onScreen.set(e.target, e.isIntersecting);
      if (e.isIntersecting) run(e.target);
    }
  }, { rootMargin: `${margin} 0px ${margin} 0px` }) : null;

  const flush = () => [...pending.keys()].forEach(run);
  // Scroll events come before the frame's animation callbacks and paint; capture sees every scroller.
  const onScroll = flush;
  const listens = Boolean(observer && scroller && typeof scroller.addEventListener === 'function');
  if (listens) scroller.addEventListener('scroll', onScroll, { capture: true, passive: true });

  return {
    watch(...els) { if (observer) els.forEach((el) => observer.observe(el)); },
    // Draws now while `el` is (or may be) on screen; otherwise keeps `draw`, replacing what was kept.
    draw(el, draw) {
      if (onScreen.get(el) === false) { pending.set(el, draw); return; }
      pending.delete(el);
      draw();
    },
    // Draws every part still kept (called just after the paint).
    flush,
    hasPending: () => pending.size > 0,
    stop() {
      if (observer) observer.disconnect();
      if (listens) scroller.removeEventListener('scroll', onScroll, { capture: true });
      pending.clear();
    },
  };
}
