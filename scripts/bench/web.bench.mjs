// Web benchmark (not a test): in headless Chromium against the built dist/, measures
//  - input-to-paint latency of control changes (real key presses on the batch slider and the optimizer
//    and precision radios; from the input event's timestamp to a task queued from the
//    requestAnimationFrame after the render, i.e. just after the frame is painted), median over ≥ 60;
//  - cold load to interactive (fresh profile each time; navigation start → the app's
//    'lab-interactive' mark after the engine is up and Act 1 is rendered), median of 5;
//  - bytes the page loads (every same-origin response), raw and gzip-compressed with zlib (level 9).
// Prints one JSON object. Targets: input-to-paint < 16 ms; whole page incl. WASM < 300 KB (300,000 B) gzipped.
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { readFileSync } from 'node:fs';

import { startServer, launch, distDir } from '../../tests/e2e/helpers.mjs';
import { installLatencyProbe, pressAndMeasure } from './paint-latency.mjs';

const CHANGES_PER_CONTROL = 20;
const COLD_LOADS = 5;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const round = (x, d = 2) => Number(x.toFixed(d));

const loadavgBefore = os.loadavg();
const srv = await startServer();
const url = `${srv.origin}/`;

// ---- cold loads and bytes
const coldMs = [];
let files = null;
for (let i = 0; i < COLD_LOADS; i += 1) {
  const browser = await launch();
  const page = await browser.context.newPage();
  const seen = new Map();
  page.on('response', (res) => { if (res.url().startsWith(srv.origin)) seen.set(new URL(res.url()).pathname, res.status()); });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
  coldMs.push(await page.evaluate(() => performance.getEntriesByName('lab-interactive')[0].startTime));
  if (!files) files = [...seen.keys()];
  await browser.close();
}
const perFile = files.map((p) => {
  const buf = readFileSync(path.join(distDir, p === '/' ? 'index.html' : decodeURIComponent(p)));
  return { path: p, raw_bytes: buf.length, gzip_bytes: zlib.gzipSync(buf, { level: 9 }).length };
});
const totalGzip = perFile.reduce((a, f) => a + f.gzip_bytes, 0);
const totalRaw = perFile.reduce((a, f) => a + f.raw_bytes, 0);

// ---- input-to-paint
const browser = await launch();
const page = await browser.context.newPage();
await page.goto(url);
await page.waitForSelector('html[data-ready="true"]');
await page.locator('.prediction input[value="c"]').check();
await page.locator('.prediction button[type=submit]').click();
await page.waitForSelector('.act-unlocked:not([hidden])');
await installLatencyProbe(page);
const drivers = [
  ['[data-control="batch"] input', ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft']],
  ['[data-control="opt"] input:checked', ['ArrowUp', 'ArrowDown']],
  ['[data-control="prec"] input:checked', ['ArrowDown', 'ArrowUp']],
];
const lat = await pressAndMeasure(page, drivers, CHANGES_PER_CONTROL);
await browser.close();
await srv.close();

const paint = lat.map((l) => l.paint);
const render = lat.map((l) => l.render);
console.log(JSON.stringify({
  input_to_paint: {
    changes: lat.length, median_ms: round(median(paint)), p90_ms: round(pct(paint, 0.9)), max_ms: round(Math.max(...paint)),
    render_median_ms: round(median(render)), render_p90_ms: round(pct(render, 0.9)),
    event_to_frame_start_median_ms: round(median(lat.map((l) => l.to_frame))),
    frame_work_median_ms: round(median(lat.map((l) => l.frame_work))),
    target_ms: 16, meets_target: median(paint) < 16,
    method: 'key press → input/change event timeStamp → rAF after the synchronous render → MessageChannel task (after paint)',
  },
  cold_load: { runs: COLD_LOADS, median_ms: round(median(coldMs), 1), min_ms: round(Math.min(...coldMs), 1), max_ms: round(Math.max(...coldMs), 1), to: "'lab-interactive' mark: engine ready and Act 1 rendered" },
  bytes: { files: perFile, total_raw_bytes: totalRaw, total_gzip_bytes: totalGzip, target_gzip_bytes: 300000, meets_target: totalGzip < 300000 },
  browser: 'Debian /usr/bin/chromium, headless, via playwright-core',
  loadavg_before: loadavgBefore, loadavg_after: os.loadavg(),
}));
