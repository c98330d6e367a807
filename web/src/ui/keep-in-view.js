// On a wide screen Act 2's step controls sit beside a sticky view (banner, bar, timeline; act2.css).
// Tabbing into the controls from above scrolls only far enough to show the first control, which
// leaves the timeline below the window while the data-pipeline controls (the ones it shows best)
// have focus. So when keyboard focus enters the controls and the view is cut off at the bottom, the
// page scrolls until the view is whole or stuck at the top. A mouse click never scrolls (no jump
// under the pointer), nor does moving between the controls. Only the lab's own window scrolls: an
// iframe sized to its content does not move (nor its host); the custom element shares the host's
// window, which scrolls as far as focus itself might.
export const WIDE_LAYOUT = '(min-width: 68rem)'; // act2.css's two-column breakpoint
const STICKY_TOP_PX = 8; // act2.css: .step-layout__view { top: 0.5rem }

export function keepViewBesideControls({ layout, controls, view, win = globalThis }) {
  controls.addEventListener('focusin', (event) => {
    if (controls.contains(event.relatedTarget)) return;
    if (!win.matchMedia(WIDE_LAYOUT).matches || !event.target.matches(':focus-visible')) return;
    const above = layout.getBoundingClientRect().top - STICKY_TOP_PX;
    const below = view.getBoundingClientRect().bottom - win.innerHeight;
    if (above > 0 && below > 0) win.scrollBy({ top: Math.min(above, below), behavior: 'instant' });
  });
}

// Focus moves to the heading of a part the student's own action just opened (a locked prediction).
// focus() scrolls only as far as the heading, which then sits at the bottom edge with everything it
// opened below the window; so the lab's own window then brings it to the top. In an iframe sized to
// its content nothing more moves: focus() has already scrolled the host as far as the heading.
export function focusNearTop(el, win = globalThis) {
  el.focus();
  const top = el.getBoundingClientRect().top;
  if (top > win.innerHeight / 3) win.scrollBy({ top: top - STICKY_TOP_PX, behavior: 'instant' });
}
