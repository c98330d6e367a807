// Shared by the web benchmark parts: input-to-paint of real key presses in a Chromium page. A probe
// in the page timestamps each input/change event (ranges render on 'input', radios on 'change'), notes
// when the control's own handler (the render) has run, and records the time to a task queued from the
// next animation frame, i.e. just after that frame is painted.
export async function installLatencyProbe(page) {
  await page.evaluate(() => {
    window.__lat = [];
    const onEvent = (e) => {
      const started = e.timeStamp;
      const handlersStart = performance.now();
      // Bubble-phase listener on window runs after the control's own handler (the render).
      window.addEventListener(e.type, () => {
        const rendered = performance.now();
        requestAnimationFrame((frameStart) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => window.__lat.push({
            paint: performance.now() - started, render: rendered - handlersStart,
            handled: rendered - started, to_frame: frameStart - started, frame_work: performance.now() - frameStart,
          });
          ch.port2.postMessage(0);
        });
      }, { once: true });
    };
    document.addEventListener('input', (e) => { if (e.target.type === 'range') onEvent(e); }, true);
    document.addEventListener('change', (e) => { if (e.target.type === 'radio') onEvent(e); }, true);
  });
}

// drivers: [[selector, [key, ...]], ...]; presses `perControl` keys on each (cycling its list), waiting
// for each change's sample. Returns the samples { paint, render, handled, to_frame, frame_work } in ms
// (handled: from the input to the end of its handlers; to_frame: to the start of the frame that
// paints it, the frame's vsync time, which for an idle page can be before the input).
// Pressed at once after each sample, a key arrives at a point in the frame that the harness's own
// round trip decides (and that the page's work after a paint shifts); jitterMs > 0 first waits a
// random 0–jitterMs, so presses land anywhere in the frame, as a person's do; minGapMs waits that
// long first (a person's presses are 100 ms or more apart, so the page's deferred work runs between).
export async function pressAndMeasure(page, drivers, perControl, { jitterMs = 0, minGapMs = 0 } = {}) {
  for (const [selector, keys] of drivers) {
    await page.locator(selector).focus();
    for (let i = 0; i < perControl; i += 1) {
      if (jitterMs > 0 || minGapMs > 0) await new Promise((r) => setTimeout(r, minGapMs + Math.random() * jitterMs));
      const before = await page.evaluate(() => window.__lat.length);
      await page.keyboard.press(keys[i % keys.length]);
      await page.waitForFunction((n) => window.__lat.length > n, before);
    }
  }
  return page.evaluate(() => window.__lat);
}
