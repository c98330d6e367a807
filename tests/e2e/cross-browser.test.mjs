// The lab in Firefox (headless, WebDriver BiDi) and WebKit (MiniBrowser under Xvfb, WebDriver), as a
// student uses it: every part loads; a prediction locks; a control moves the ledger to the engine's
// values (Node, same WASM); a short Measure it gives a plausible peak and an MFU below 80%, timed over
// spans of 100 ticks of the browser's clock; the ledger exports and imports as verified; the single
// file works from file://; the iframe page and the element send their messages to a parent on another
// origin; 390 px through a 390 px iframe (MiniBrowser's window cannot be narrower than 447 px).
// Drivers: tests/e2e/browsers.mjs. The Chromium files cover the rest in depth.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { startSite, nodeEvaluate, singleFile, STRICT_CSP } from './helpers.mjs';
import { openFirefox, openWebKit, missing } from './browsers.mjs';
import { toScenario, normalizeConfig, OPTIMIZERS } from '../../web/src/state/scenario.js';
import { formatBytes } from '../../web/src/format/format.js';

const parentPage = (src) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title>
<link rel="icon" href="data:,"></head><body><main><h1>Week 8</h1>
<iframe id="lab" title="Lab 08" src="${src}" width="390" height="700"></iframe></main>
<script>window.__msgs = []; addEventListener('message', (e) => { if (e.source === document.getElementById('lab').contentWindow) window.__msgs.push({ origin: e.origin, data: e.data }); });</script></body></html>`;
const elementPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title>
<link rel="icon" href="/course/icon.svg"><script type="module" src="/lab-model-train.js"></script><script src="/course/listen.js"></script></head>
<body><main><h1>Week 8</h1><lab-model-train act="1" storage="memory"></lab-model-train></main></body></html>`;
const listen = "window.__events = []; for (const t of ['lab:ready', 'lab:progress', 'lab:ledger']) document.addEventListener(t, (e) => window.__events.push({ type: t, labId: e.detail && e.detail.labId }));";

let lab;
let parentSite;
let evaluate;
const skip = missing().length ? `not installed: ${missing().join(', ')} (scripts/setup.sh --tests installs them)` : false;

before(async () => {
  const labPages = { '/course/element.html': { body: elementPage, csp: STRICT_CSP }, '/course/listen.js': listen,
    '/course/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>' };
  const parentPages = {};
  lab = await startSite({ csp: STRICT_CSP, pages: labPages });
  labPages['/course/narrow.html'] = { body: parentPage('/?act=1'), csp: null };
  parentSite = await startSite({ host: 'localhost', prefix: '/nothing-here/', csp: null, pages: parentPages });
  parentPages['/cross.html'] = parentPage(`${lab.origin}/embed.html?parentOrigin=${encodeURIComponent(parentSite.origin)}&instance=week8`);
  evaluate = await nodeEvaluate();
});
after(async () => { await lab?.close(); await parentSite?.close(); });

// LAB_BROWSERS=firefox (or webkit) runs one of the two.
const chosen = (process.env.LAB_BROWSERS || 'firefox,webkit').split(',');
for (const [key, open] of [['firefox', openFirefox], ['webkit', openWebKit]].filter(([k]) => chosen.includes(k))) {
  describe(key === 'firefox' ? 'Firefox' : 'WebKit', { skip }, () => {
    let b;
    before(async () => { b = await open(); });
    after(async () => { await b?.close(); });
    const ready = (what = 'the lab to start') => b.until(() => document.documentElement.dataset.ready === 'true', null, what);
    const lockB = async () => {
      await b.run(() => { document.querySelector('.prediction input[value="b"]').click(); document.querySelector('.prediction button[type=submit]').click(); });
      await b.until(() => document.querySelector('.act-unlocked') && !document.querySelector('.act-unlocked').hidden, null, 'the instruments to open');
    };

    test('every part loads', async (t) => {
      t.diagnostic(`${b.name} ${b.version}`);
      for (const act of ['1', '2', 'measure', 'ledger']) {
        await b.goto(`${lab.origin}/?act=${act}`);
        await ready(`act=${act}`);
        const title = await b.until(() => document.querySelector('#act-title')?.textContent, null, `the title of act=${act}`);
        const current = await b.run(() => document.querySelector('.act-nav [aria-current="page"]')?.textContent);
        assert.ok(title.length > 3 && current, `act=${act}: ${title} / ${current}`);
      }
    });

    test('a prediction locks, and a control moves the ledger to the engine’s values', async () => {
      await b.goto(`${lab.origin}/?act=1`);
      await ready();
      await lockB();
      assert.match(await b.run(() => document.querySelector('.locked-note').textContent), /Locked in: B/);
      await b.run(() => document.querySelector('[data-control="prec"] input[value="mixed"]').click());
      const config = normalizeConfig({ precision: 'mixed' });
      for (const opt of OPTIMIZERS) {
        const m = evaluate(toScenario(config, { optimizer: opt })).memory;
        const cell = await b.until((a) => {
          const td = document.querySelector(`.ledger-table tr[data-row="peak"] td[data-optimizer="${a.opt}"]`);
          return td && td.dataset.bytes === a.bytes && { bytes: td.dataset.bytes, text: td.textContent.trim() };
        }, { opt, bytes: String(m.peak_bytes) }, `the ${opt} peak`);
        assert.ok(cell.text.startsWith(formatBytes(m.peak_bytes, 'gb')), `${opt}: ${cell.text}`);
      }
    });

    test('a short Measure it: a plausible peak and MFU, the clock’s step shown', async (t) => {
      await b.goto(`${lab.origin}/?act=measure`);
      await ready();
      await b.until(() => Boolean(document.querySelector('[data-control="steps"] select')), null, 'the panel');
      await b.run(() => {
        const s = document.querySelector('[data-control="steps"] select');
        s.value = '20';
        s.dispatchEvent(new Event('change', { bubbles: true }));
        document.querySelector('.run-status:not(.run-status--stall) .btn--primary').click();
      });
      const state = await b.until(() => { const s = document.querySelector('.run-status:not(.run-status--stall)').dataset.state; return s !== 'idle' && s !== 'running' && s; }, null, 'the run to end', 180000);
      assert.equal(state, 'done');
      const speed = await b.run(() => Object.fromEntries([...document.querySelectorAll('.speed__row')].map((r) => [r.dataset.key, { value: r.querySelector('dd').dataset.value, text: r.querySelector('dd').textContent }])));
      t.diagnostic(`${b.name}: ${JSON.stringify(speed)}`);
      const peak = Number(speed.peak_flops_per_s.value);
      const mfu = Number(speed.mfu.value);
      assert.ok(peak > 1e9 && peak < 1e12, `peak ${peak}`);
      // Firefox: below 80% (issue 30's target; its 1 ms clock once gave 84-99.7%). WebKit runs the plain
      // build, whose kernel JavaScriptCore ran at 2-21 GFLOP/s here from run to run on a loaded machine,
      // and an MFU of 28-97%: there only the physics' bound (below 100%) is asserted. Above it, the
      // peak was timed too low: the bug issue 30 asks the tests to catch.
      assert.ok(mfu > 0.05 && mfu < (key === 'firefox' ? 0.8 : 1), `MFU ${mfu}`);
      assert.ok(Math.abs(mfu - Number(speed.model_flops_per_s.value) / peak) < 1e-9);
      const tick = Number(speed.clock_resolution.value);
      assert.ok(tick > 0 && tick <= 0.02, `clock step ${tick}`);
      if (tick >= 0.5e-3) assert.match(await b.run(() => document.querySelector('.arithmetic-note').textContent), /clock moves in steps of/);
    });

    test('the ledger exports and imports as verified', async (t) => {
      await b.goto(`${lab.origin}/?act=ledger`);
      await ready();
      await b.until(() => Boolean(document.querySelector('.ledger-actions .btn--primary')), null, 'the ledger panel');
      const text = await b.run(async () => {
        let blob = null;
        const make = URL.createObjectURL;
        URL.createObjectURL = (x) => { blob = x; return make.call(URL, x); };
        document.querySelector('.ledger-actions .btn--primary').click();
        URL.createObjectURL = make;
        return blob ? blob.text() : null;
      });
      assert.equal(JSON.parse(text).lab_id, 'lab08-model-train');
      await b.run((json) => {
        const input = document.querySelector('.ledger-drop input[type=file]');
        const dt = new DataTransfer();
        dt.items.add(new File([json], 'ledger.json', { type: 'application/json' }));
        input.files = dt.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, text);
      const verdict = await b.until(() => { const r = document.querySelector('.ledger-result'); return r && !r.hidden && /Verified|differ|invalid/i.test(r.textContent) && r.textContent; }, null, 'the check');
      assert.match(verdict, /✓ Verified/);
      // Copy: written where the browser allows it, else the page says how to copy by hand.
      // The status line still holds the download's words: wait for the copy's own (it is async).
      const before = await b.run(() => document.querySelector('.ledger-status')?.textContent || '');
      await b.run(() => document.querySelector('.ledger-actions .btn:not(.btn--primary)').click());
      const copied = await b.until((prev) => { const s = document.querySelector('.ledger-status')?.textContent; return s && s !== prev && s; }, before, 'the copy status');
      t.diagnostic(`${b.name} copy: ${copied}`);
      assert.match(copied, /on the clipboard|press Ctrl\+C/);
    });

    test('the single file works from file://', async () => {
      await b.goto(pathToFileURL(singleFile).href);
      await ready('the single file');
      await lockB();
      const m = evaluate(toScenario(normalizeConfig({}), { optimizer: 'adam' })).memory;
      await b.until((bytes) => document.querySelector('.ledger-table tr[data-row="peak"] td[data-optimizer="adam"]')?.dataset.bytes === bytes,
        String(m.peak_bytes), 'Act 1 on the inlined engine');
    });

    test('the iframe page and the element send their messages to a parent on another origin; 390 px', async () => {
      await b.goto(`${parentSite.origin}/cross.html`);
      const msgs = await b.until(() => {
        const all = window.__msgs;
        const has = (f) => all.some((m) => f(m.data));
        return has((d) => d.type === 'lab:ready') && has((d) => d.type === 'lab:resize') && has((d) => d.type === 'lab:ledger')
          && has((d) => d.subject === 'lti.frameResize') && all;
      }, null, 'lab:ready, lab:resize, lti.frameResize and lab:ledger');
      assert.ok(msgs.every((m) => m.origin === lab.origin), JSON.stringify(msgs.map((m) => m.origin)));
      assert.equal(msgs.find((m) => m.data.type === 'lab:ready').data.instance, 'week8');

      await b.goto(`${lab.origin}/course/element.html`);
      const events = await b.until(() => window.__events && ['lab:ready', 'lab:progress', 'lab:ledger'].every((t) => window.__events.some((e) => e.type === t)) && window.__events, null, 'the element’s events');
      assert.equal(events.find((e) => e.type === 'lab:ready').labId, 'lab08-model-train');

      await b.goto(`${lab.origin}/course/narrow.html`);
      const narrow = await b.until(() => {
        const d = document.getElementById('lab').contentDocument;
        return d && d.documentElement.dataset.ready === 'true' && d.querySelector('.prediction')
          && { viewport: d.defaultView.innerWidth, width: d.documentElement.clientWidth, scroll: d.documentElement.scrollWidth };
      }, null, 'the lab at 390 px');
      assert.equal(narrow.viewport, 390);
      assert.ok(narrow.scroll <= narrow.width + 1, `sideways scrolling: ${JSON.stringify(narrow)}`);
    });

    test('no console or page errors', async () => {
      assert.deepEqual(await b.errors(), []);
    });
  });
}
