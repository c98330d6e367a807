// Act 3's four charts in headless Chromium, twice. In Act 3 itself (the built site, ?act=3): after the
// lock, with every disclosure open, at 1,280, 640 (200% zoom) and 390 px, light and dark, the four
// charts are drawn inside their boxes with no word outside its chart or over another, axe-core finds
// nothing and no console error; the memory chart's state follows the act's controls (DDP over budget,
// ZeRO-3 fitting) as the engine says. And on a page of their own (the chart modules and the lab's
// styles bundled by esbuild from web/src, the lab's strict CSP), with the engine's results (lab_scale,
// in Node) for every scenario in tests/web/unit/parallel-scenarios.mjs, at 1,280, 640, 390 and 320 px:
// the same checks, out of memory hatched and named, the tables opened from the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createServer, listen } from '../../scripts/serve-static.mjs';
import { launch, axeViolations, startServer, watchedPage, openLab } from './helpers.mjs';
import { act3Engine, lockAct3, A3 } from './act3-helpers.mjs';
import { loadScaleEngine } from '../../scripts/engine-node.mjs';
import { ACT3_SCENARIOS, enginePoints } from '../web/unit/parallel-scenarios.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const engine = await loadScaleEngine();
const evaluate = (s) => JSON.parse(engine.evaluate(JSON.stringify(s)));
const FIXTURES = Object.keys(ACT3_SCENARIOS);
const ENTRY = `
import '../web/src/ui/styles.css';
import { mountParallelMemoryChart } from '../web/src/charts/parallel-memory-chart.js';
import { mountParallelTimelineChart } from '../web/src/charts/parallel-timeline-chart.js';
import { mountCommTaxChart } from '../web/src/charts/comm-tax-chart.js';
import { mountCrossoverChart } from '../web/src/charts/crossover-chart.js';
const MOUNTS = { memory: mountParallelMemoryChart, timeline: mountParallelTimelineChart, tax: mountCommTaxChart, crossover: mountCrossoverChart };
const charts = {};
for (const [id, mount] of Object.entries(MOUNTS)) {
  const box = document.createElement('section');
  box.dataset.chart = id;
  const h = document.createElement('h2'); h.textContent = id; box.append(h);
  document.querySelector('main').append(box);
  charts[id] = mount(box, { format: 'gb' });
}
window.showResult = (result, points) => { for (const [id, c] of Object.entries(charts)) c.update(result, id === 'tax' ? { points } : {}); };
window.chartsReady = true;
`;

// Vite's `?inline` CSS import (the text of the file), for esbuild.
const inlineCss = {
  name: 'inline-css',
  setup(b) {
    b.onResolve({ filter: /\?inline$/ }, (a) => ({ path: path.resolve(a.resolveDir, a.path.replace(/\?inline$/, '')), namespace: 'inline-css' }));
    b.onLoad({ filter: /.*/, namespace: 'inline-css' }, (a) => ({ contents: readFileSync(a.path, 'utf8'), loader: 'text' }));
  },
};

let srv;
let dir;
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'act3-charts-'));
  // The entry is given as text, resolved from tests/ (no file is written into the checkout).
  await build({ stdin: { contents: ENTRY, resolveDir: path.join(root, 'tests'), sourcefile: 'act3-charts-entry.mjs' },
    bundle: true, format: 'esm', outfile: path.join(dir, 'charts.js'), logLevel: 'error', absWorkingDir: root, plugins: [inlineCss] });
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
    + '<title>Act 3 charts</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/charts.css"></head>'
    + '<body><main class="lab"><h1>Act 3 charts</h1></main><script type="module" src="/charts.js"></script></body></html>';
  writeFileSync(path.join(dir, 'index.html'), html);
  const server = createServer(dir);
  const port = await listen(server, 0);
  srv = { origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
});
after(async () => { await srv?.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

// The scenario's result and the communication-tax chart's points (N = 1 … 1,024), as the act computes them.
async function showFixture(page, name) {
  const r = evaluate(ACT3_SCENARIOS[name]);
  await page.evaluate(([res, pts]) => window.showResult(res, pts), [r, enginePoints(evaluate, ACT3_SCENARIOS[name])]);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  return r;
}

// Boxes wider than their chart's section, and SVG words outside their SVG.
const layoutProblems = (page, within = '[data-chart]') => page.evaluate((sel) => {
  const out = [];
  for (const sec of document.querySelectorAll(sel)) {
    const box = sec.getBoundingClientRect();
    const svg = sec.querySelector('svg');
    if (sec.scrollWidth > sec.clientWidth + 1) out.push(`${sec.dataset.chart}: ${sec.scrollWidth} px wide in ${sec.clientWidth}`);
    if (!svg || svg.getAttribute('display') === 'none') continue;
    const s = svg.getBoundingClientRect();
    if (s.right > box.right + 1) out.push(`${sec.dataset.chart}: svg runs past its box`);
    const boxes = [];
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent || t.closest('[display="none"]')) continue;
      const b = t.getBoundingClientRect();
      if (b.left < s.left - 1 || b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1) out.push(`${sec.dataset.chart}: “${t.textContent}” outside its chart`);
      // Two words on top of each other (a 1 px touch allowed): neither can be read.
      for (const [other, o] of boxes) {
        if (b.left < o.right - 1 && o.left < b.right - 1 && b.top < o.bottom - 1 && o.top < b.bottom - 1) out.push(`${sec.dataset.chart}: “${t.textContent}” over “${other}”`);
      }
      boxes.push([t.textContent, b]);
    }
  }
  return out;
}, within);

for (const scheme of ['light', 'dark']) {
  test(`the four charts at 1280, 640, 390 and 320 px (${scheme}): inside their boxes, axe-clean, no console error`, async () => {
    const browser = await launch({ colorScheme: scheme });
    try {
      const page = await browser.context.newPage();
      const errors = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(e.message));
      for (const width of [1280, 640, 390, 320]) { // 320: a chart in a nested box at 390 px
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${srv.origin}/`);
        await page.waitForFunction(() => window.chartsReady);
        for (const name of FIXTURES) {
          await showFixture(page, name);
          assert.deepEqual(await layoutProblems(page), [], `${name} at ${width} px`);
          if (process.env.ACT3_SHOTS) await page.screenshot({ path: path.join(process.env.ACT3_SHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
        }
        await page.locator('[data-chart="memory"] details.twin summary').click();
        const v = await axeViolations(page);
        assert.deepEqual(v, [], `${width} px ${scheme}: ${JSON.stringify(v, null, 1)}`);
      }
      assert.deepEqual(errors, []);
    } finally { await browser.close(); }
  });
}

test('out of memory is drawn and named as not fitting; a device that fits is not flagged', async () => {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${srv.origin}/`);
    await page.waitForFunction(() => window.chartsReady);
    await showFixture(page, 'laptopsDdpPcie');
    const mem = page.locator('[data-chart="memory"]');
    assert.equal(await mem.locator('g.device-stack').getAttribute('data-state'), 'oom');
    assert.match(await mem.locator('g.device-stack rect.hatch').getAttribute('fill'), /^url\(#pchart-hatch-/);
    assert.equal(await mem.locator('text[data-key="flag"]').textContent(), '✕ does not fit'); // 1,280 px
    assert.match(await mem.locator('svg').getAttribute('aria-label'), /does not fit: [\d.,]+\u00a0GB over/);
    assert.equal(await mem.locator('g.stage[data-state="oom"]').count(), 4);
    assert.match(await page.locator('[data-chart="tax"] text[data-key="scenario"]').textContent(), /does not fit/);
    // The hollow points (out of memory) are in the tax chart's key (the walk found them unexplained).
    assert.ok(await page.locator('[data-chart="tax"] circle.engine-point--oom').count() >= 1);
    assert.match(await page.locator('[data-chart="tax"] .pchart__key').textContent(), /Hollow: does not fit in memory/);
    await showFixture(page, 'h100ThreeWays');
    assert.equal(await mem.locator('g.device-stack').getAttribute('data-state'), 'ok');
    assert.equal(await mem.locator('g.device-stack rect.hatch').getAttribute('fill'), 'none');
    assert.equal(await mem.locator('text[data-key="flag"]').textContent(), '');
    // The timeline draws the bubble and both kinds of communication; the key names each.
    const tl = page.locator('[data-chart="timeline"]');
    assert.ok(await tl.locator('g.bar-group[data-kind="bubble"]').count() >= 1);
    assert.ok(await tl.locator('g.bar-group[data-exposed="true"][data-lane="communication"]').count() >= 1);
    assert.match(await tl.locator('.pchart__key').textContent(), /Bubble.*exposed/s);
    // Compute is never hatched (the engine marks it exposed: always on the critical path).
    assert.deepEqual(await tl.locator('g.bar-group[data-lane="compute"]:not([data-kind="bubble"]) rect.bar-hatch').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('fill')))]), ['none']);
  } finally { await browser.close(); }
});

test('keyboard only: each chart’s table opens with Enter and holds the summary’s numbers', async () => {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${srv.origin}/`);
    await page.waitForFunction(() => window.chartsReady);
    const r = await showFixture(page, 'h100ThreeWays');
    for (const id of ['memory', 'timeline', 'tax', 'crossover']) {
      for (let i = 0; i < 20; i += 1) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((c) => document.activeElement.matches(`[data-chart="${c}"] summary`), id)) break;
      }
      assert.equal(await page.evaluate((c) => document.activeElement.matches(`[data-chart="${c}"] summary`), id), true, id);
      await page.keyboard.press('Enter');
      assert.equal(await page.locator(`[data-chart="${id}"] details.twin`).getAttribute('open'), '');
      // The tables are written on the disclosure's toggle event, just after it opens.
      await page.waitForFunction((c) => document.querySelector(`[data-chart="${c}"] caption`).textContent.includes('. '), id);
      const caption = await page.locator(`[data-chart="${id}"] caption`).first().textContent();
      const label = await page.locator(`[data-chart="${id}"] svg`).getAttribute('aria-label');
      const plain = (t) => t.replace(/\u00a0/g, ' ');
      assert.ok(plain(label).endsWith(plain(caption).replace(/^[^.]*\. /, '')), `${id}: the table's caption is the chart's summary`);
    }
    const stepCell = page.locator('[data-chart="timeline"] tr[data-row="step"] td');
    assert.equal(await stepCell.getAttribute('data-value'), String(r.parallel.step_s));
    // Open, a table follows each update; closed, it is written when it opens, with the latest numbers.
    const eth = await showFixture(page, 'h100Zero3Ethernet');
    assert.equal(await stepCell.getAttribute('data-value'), String(eth.parallel.step_s));
    await page.locator('[data-chart="timeline"] details.twin summary').click();
    const free = await showFixture(page, 'laptopsZero3Free');
    await page.locator('[data-chart="timeline"] details.twin summary').click();
    await page.waitForFunction((v) => document.querySelector('[data-chart="timeline"] tr[data-row="step"] td')?.getAttribute('data-value') === v, String(free.parallel.step_s));
  } finally { await browser.close(); }
});

test('in Act 3: the four charts after the lock, inside their boxes, axe-clean, following the controls', async () => {
  const site = await startServer();
  try {
    for (const scheme of ['light', 'dark']) {
      for (const width of [1280, 640, 390]) {
        const browser = await launch({ colorScheme: scheme, viewport: { width, height: 900 } });
        try {
          const { page, problems } = await watchedPage(browser.context, site.origin);
          await openLab(page, `${site.origin}/?act=3`);
          assert.equal(await act3Engine(page), true, 'this build has lab_scale');
          await lockAct3(page, 4);
          await page.waitForFunction((a) => document.querySelectorAll(`${a} .pchart svg[aria-label*=". "]`).length === 4, A3);
          // Every disclosure open (the tax and crossover charts sit in one, each chart's table in another);
          // opening them by keyboard is checked on the page of their own above.
          await page.evaluate((a) => { for (const d of document.querySelectorAll(`${a} details`)) d.open = true; }, A3);
          // Each chart's first table is captioned with its summary once written.
          await page.waitForFunction((a) => [...document.querySelectorAll(`${a} .pchart`)].every((c) => c.querySelector('caption').textContent.includes('. ')), A3);
          const at = `${width} px ${scheme}`;
          assert.deepEqual(await layoutProblems(page, `${A3} .pchart`), [], at);
          const v = await axeViolations(page);
          assert.deepEqual(v, [], `${at}: ${JSON.stringify(v, null, 1)}`);
          if (width === 1280 && scheme === 'light') {
            // The memory chart follows the strategy: plain DDP does not fit four laptop GPUs; ZeRO-3 does.
            const mem = page.locator(`${A3} .pmem`);
            await page.locator(`${A3} [data-control="strategy"] select`).selectOption('ddp');
            await page.waitForFunction((a) => document.querySelector(`${a} .pmem g.device-stack`).getAttribute('data-state') === 'oom', A3);
            assert.match(await mem.locator('text[data-key="flag"]').textContent(), /^✕/);
            await page.locator(`${A3} [data-control="strategy"] select`).selectOption('zero3');
            await page.waitForFunction((a) => document.querySelector(`${a} .pmem g.device-stack`).getAttribute('data-state') === 'ok', A3);
            assert.equal(await mem.locator('g.stage[data-stage="3"]').getAttribute('data-state'), 'ok');
            // Under a pipeline the columns name that layout, not DDP, and the left one is this setup.
            await page.locator(`${A3} [data-control="strategy"] select`).selectOption('pp');
            await page.waitForFunction((a) => /Pipeline/.test(document.querySelector(`${a} .pmem text[data-key="stages"]`).textContent), A3);
            assert.equal(await mem.locator('text[data-key="n0"]').textContent(), 'No ZeRO');
            assert.equal(await mem.locator('text[data-key="name"]').textContent(), 'This setup');
            await page.locator(`${A3} [data-control="strategy"] select`).selectOption('zero3');
          }
          if (width === 390) {
            // At 390 px a stage over budget gives its amount, with the ✕ above it (the walk saw a bare ✕).
            await page.locator(`${A3} [data-control="strategy"] select`).selectOption('ddp');
            await page.waitForFunction((a) => document.querySelector(`${a} .pmem g.device-stack`).getAttribute('data-state') === 'oom', A3);
            const mem = page.locator(`${A3} .pmem`);
            assert.match(await mem.locator('text[data-key="v0"]').textContent(), /\d+\.\d\d/, at);
            assert.match(`${await mem.locator('text[data-key="x0"]').textContent()}${await mem.locator('text[data-key="v0"]').textContent()}`, /✕/, at);
            assert.deepEqual(await layoutProblems(page, `${A3} .pchart`), [], `${at}, DDP`);
            await page.locator(`${A3} [data-control="strategy"] select`).selectOption('zero3');
          }
          assert.deepEqual(problems.consoleErrors, [], at);
          assert.deepEqual(problems.foreignRequests, [], at);
        } finally { await browser.close(); }
      }
    }
  } finally { await site.close(); }
});
