// Act 2 benchmark (not a test): in headless Chromium against the built site (LAB_DIST_DIR or dist/),
//  - input-to-paint of Act 2 control changes (real key presses on the workers and batch sliders and
//    the precision radios; every change redraws the step bar, the 3-step timeline, the gauges and the
//    design panel): from the input event's timestamp to a task queued from the requestAnimationFrame
//    after the render, i.e. just after the frame is painted; median, p95, max over ≥ 60 changes;
//    presses sent at once after each sample, at a random point of the frame, and at a person's pace;
//  - the bytes of a first load of the lab (Act 1's page, as a static host serves it) and what opening
//    Act 2 adds on demand, raw and gzip level 9.
//  - for each sample, the lab's own part: input-to-paint less the wait for the display's next frame
//    (see ownPart); the input-to-paint target is read on it (meets_target), the raw figures beside.
// Prints one JSON object. Targets: p95 input-to-paint < 16 ms (the lab's own part, every 60 Hz timing,
// every change in its first frame); first load < 250 KB (250,000 B) gzipped.
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { readFileSync } from 'node:fs';
import { startServer, launch, distDir, CHROMIUM_ARGS } from '../../tests/e2e/helpers.mjs';
import { installLatencyProbe, pressAndMeasure } from './paint-latency.mjs';

const CHANGES_PER_CONTROL = 48;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => { const s = sorted(xs); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const pct = (xs, p) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const round = (x, d = 2) => Number(x.toFixed(d));
const gz = (p) => {
  const buf = readFileSync(path.join(distDir, p === '/' ? 'index.html' : decodeURIComponent(p)));
  return { path: p, raw_bytes: buf.length, gzip_bytes: zlib.gzipSync(buf, { level: 9 }).length };
};
const sum = (files, k) => files.reduce((a, f) => a + f[k], 0);
// A change is in the first frame after its input when the frame that paints it began less than one
// frame interval (60 Hz, +1 ms for timer jitter) after the input: otherwise a frame began in between
// and was painted without it. (A frame counter on requestAnimationFrame would tell exactly, but a
// running rAF loop keeps an idle page producing frames, which changes what is measured.)
const FRAME_INTERVAL_MS = 1000 / 60;
const inFirstFrame = (x) => x.to_frame <= FRAME_INTERVAL_MS + 1;
// The page's own part of a sample: input-to-paint less the time the page, its handlers done, sat
// waiting for the display's next frame to begin (at most one frame interval). At 60 Hz that wait is
// 0–16.7 ms whatever a page does, so a press at a random point of the frame has a p95 near 16 ms on
// an empty page (the harness floor below); what is left is the lab's: its handlers, then the frame's
// style, layout, paint and commit, and any task of its own that delayed that frame. A change that
// missed its first frame keeps the missed frame (the wait is capped at one interval).
const displayWait = (x) => Math.min(FRAME_INTERVAL_MS, Math.max(0, x.to_frame - x.handled));
const ownPart = (x) => x.paint - displayWait(x);

const loadavgBefore = os.loadavg();
const srv = await startServer();
const browser = await launch();

// ---- bytes: first load, then what opening Act 2 fetches
const page0 = await browser.context.newPage();
const seen = [];
page0.on('response', (res) => { if (res.url().startsWith(srv.origin)) seen.push(new URL(res.url()).pathname); });
await page0.goto(`${srv.origin}/`);
await page0.waitForSelector('html[data-ready="true"]');
const firstLoad = [...new Set(seen)].map(gz);
seen.length = 0;
await page0.goto(`${srv.origin}/?act=2`);
await page0.waitForSelector('[data-act="2"]');
const act2Files = [...new Set(seen)].filter((p) => !firstLoad.some((f) => f.path === p) && p !== '/').map(gz);
await page0.close();

// ---- input-to-paint, in a browser at 60 Hz (as a display paces it) and with frames unthrottled
// (no wait for the next vsync: what the lab and Chromium's layout and paint cost).
async function inputToPaint(browser, { jitterMs = 0, minGapMs = 0 } = {}) {
  const page = await browser.context.newPage();
  await page.goto(`${srv.origin}/?act=2`);
  await page.waitForSelector('[data-act="2"]');
  if (await page.locator('[data-act="2"] .act-unlocked[hidden]').count()) { // not yet locked in this profile
    await page.locator('[data-act="2"] .prediction input[value="c"]').check();
    await page.locator('[data-act="2"] .prediction button[type=submit]').click();
  }
  await page.waitForSelector('[data-act="2"] .act-unlocked:not([hidden])');
  await installLatencyProbe(page);
  const drivers = [
    ['[data-act="2"] [data-control="workers"] input', ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft']],
    ['[data-act="2"] [data-control="batch"] input', ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft']],
    ['[data-act="2"] [data-control="prec"] input:checked', ['ArrowUp', 'ArrowDown']],
  ];
  const samples = await pressAndMeasure(page, drivers, CHANGES_PER_CONTROL, { jitterMs, minGapMs });
  await page.close();
  const lat = samples.map((x) => x.paint);
  const render = samples.map((x) => x.render);
  const toFrame = samples.map((x) => x.to_frame);
  const frameWork = samples.map((x) => x.frame_work);
  const own = samples.map(ownPart);
  const wait = samples.map(displayWait);
  // Where a sample's time goes: the lab's render, the wait for the frame, and the frame's own work
  // (style, layout, paint) after its requestAnimationFrame callbacks. And whether each change made the
  // first frame after its input (no frame painted without it).
  return {
    changes: lat.length, median_ms: round(median(lat)), p95_ms: round(pct(lat, 0.95)), max_ms: round(Math.max(...lat)),
    in_first_frame: samples.filter(inFirstFrame).length,
    own_median_ms: round(median(own)), own_p95_ms: round(pct(own, 0.95)), own_max_ms: round(Math.max(...own)),
    display_wait_median_ms: round(median(wait)), display_wait_p95_ms: round(pct(wait, 0.95)),
    render_median_ms: round(median(render)), render_p95_ms: round(pct(render, 0.95)),
    to_frame_median_ms: round(median(toFrame)), to_frame_p95_ms: round(pct(toFrame, 0.95)),
    frame_work_median_ms: round(median(frameWork)), frame_work_p95_ms: round(pct(frameWork, 0.95)),
  };
}
// The harness's own floor: the same probe and key presses on a page whose only work is to show a
// slider's value. What the lab adds over this is what it can still cut.
async function harnessFloor(browser, { jitterMs = 0, minGapMs = 0 } = {}) {
  const page = await browser.context.newPage();
  await page.setContent('<input type="range" id="r" min="0" max="100" aria-label="value"><output id="o"></output>');
  await page.evaluate(() => { const r = document.getElementById('r'); r.addEventListener('input', () => { document.getElementById('o').textContent = r.value; }); });
  await installLatencyProbe(page);
  const samples = await pressAndMeasure(page, [['#r', ['ArrowRight', 'ArrowLeft']]], 3 * CHANGES_PER_CONTROL, { jitterMs, minGapMs });
  await page.close();
  const lat = samples.map((x) => x.paint);
  const frameWork = samples.map((x) => x.frame_work);
  const own = samples.map(ownPart);
  return { changes: lat.length, median_ms: round(median(lat)), p95_ms: round(pct(lat, 0.95)), in_first_frame: samples.filter(inFirstFrame).length,
    own_median_ms: round(median(own)), own_p95_ms: round(pct(own, 0.95)),
    frame_work_median_ms: round(median(frameWork)), frame_work_p95_ms: round(pct(frameWork, 0.95)) };
}
const at60Hz = await inputToPaint(browser);
const floor60Hz = await harnessFloor(browser);
// The same with each press at a random point of the frame (0–17 ms after the last sample): at 60 Hz a
// press then waits 0–16.7 ms for the next frame whatever the page does, so no page's p95 is under
// ~16 ms this way; the floor shows what that wait alone costs.
const random60Hz = await inputToPaint(browser, { jitterMs: FRAME_INTERVAL_MS });
const randomFloor60Hz = await harnessFloor(browser, { jitterMs: FRAME_INTERVAL_MS });
// At a person's pace: presses 100–300 ms apart, so the work the lab defers (table twins, the
// best-setting search after 250 ms of rest, saving) runs between them, and sometimes under a press.
const PERSON_PACE = { minGapMs: 100, jitterMs: 200 };
const personPace60Hz = await inputToPaint(browser, PERSON_PACE);
const personPaceFloor60Hz = await harnessFloor(browser, PERSON_PACE);
await browser.close();
const unthrottled = await launch({ args: [...CHROMIUM_ARGS, '--disable-gpu-vsync', '--disable-frame-rate-limit'] });
const free = await inputToPaint(unthrottled);
await unthrottled.close();
await srv.close();

console.log(JSON.stringify({
  input_to_paint: {
    at_60hz: at60Hz,
    harness_floor_at_60hz: floor60Hz,
    at_60hz_random_timing: random60Hz,
    harness_floor_at_60hz_random_timing: randomFloor60Hz,
    at_60hz_person_pace: personPace60Hz,
    harness_floor_at_60hz_person_pace: personPaceFloor60Hz,
    frames_unthrottled: free,
    // The target is read on the lab's own part (see ownPart), in every 60 Hz timing, with every
    // change painted in the first frame after its input; the raw figures keep the display's wait.
    target_p95_ms: 16,
    meets_target: [at60Hz, random60Hz, personPace60Hz].every((x) => x.own_p95_ms < 16 && x.in_first_frame === x.changes),
    target_measure: 'own_p95_ms in at_60hz, at_60hz_random_timing and at_60hz_person_pace, with in_first_frame equal to changes in each',
    raw_p95_under_target_at_60hz: at60Hz.p95_ms < 16, raw_p95_under_target_unthrottled: free.p95_ms < 16,
    method: 'key press → input/change event timeStamp → rAF after the synchronous render → MessageChannel task (after paint); controls: workers, batch, precision; at 60 Hz a change waits up to one frame for its paint, unthrottled (--disable-gpu-vsync --disable-frame-rate-limit) it does not; in_first_frame: changes whose painting frame began within one frame interval (+1 ms) of the input, i.e. no frame was painted without them; own_*: input-to-paint less the time the page, its handlers done, waited for the display\'s next frame to begin (display_wait_*, at most one frame interval)',
  },
  first_load: { files: firstLoad, total_raw_bytes: sum(firstLoad, 'raw_bytes'), total_gzip_bytes: sum(firstLoad, 'gzip_bytes'),
    target_gzip_bytes: 250000, meets_target: sum(firstLoad, 'gzip_bytes') < 250000 },
  act2_on_demand: { files: act2Files, total_raw_bytes: sum(act2Files, 'raw_bytes'), total_gzip_bytes: sum(act2Files, 'gzip_bytes') },
  browser: 'Debian /usr/bin/chromium, headless, via playwright-core',
  loadavg_before: loadavgBefore, loadavg_after: os.loadavg(),
}));
