// The iframe page (embed.html) inside course pages on other origins, in headless Chromium: a cross-site
// parent that speaks H5P's resizer protocol and listens for Canvas's lti.frameResize and the generic
// lab:resize (height messages in all three dialects, lab:ready, lab:progress and lab:ledger after a
// prediction), hostile messages ignored, storage blocked (the lab runs in memory and says so); a
// same-origin parent (the ledger without parentOrigin); a sandboxed frame (allow-scripts only). Every
// page: axe-core with zero violations, no console errors, no CSP violation, no request off the lab's
// and the parent's origins.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, launch, shipPage, axeViolations, STRICT_CSP } from './helpers.mjs';

let lab;
let parentSite;
let browser;

// A course page: H5P's resizer (h5p-resizer.js: answers hello and prepareResize, sets the frame's height
// on resize) plus listeners that record every message the frame sends.
const parentPage = (src, sandbox = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Week 8 — course page</title><link rel="icon" href="data:,"></head>
<body><main><h1>Week 8: training</h1>
<iframe id="lab" title="Lab 08: Model Training" src="${src}" ${sandbox} width="100%" height="200"></iframe></main>
<script>
window.__msgs = [];
const iframe = document.getElementById('lab');
window.addEventListener('message', (e) => {
  if (e.source !== iframe.contentWindow) return;
  const d = e.data;
  window.__msgs.push({ origin: e.origin, data: d });
  if (d && d.context === 'h5p') {
    const respond = (action) => e.source.postMessage({ context: 'h5p', action }, e.origin === 'null' ? '*' : e.origin);
    if (d.action === 'hello') respond('hello');
    else if (d.action === 'prepareResize') { iframe.style.height = d.clientHeight + 'px'; respond('resizePrepared'); }
    else if (d.action === 'resize') iframe.style.height = d.scrollHeight + 'px';
  }
});
</script></body></html>`;

before(async () => {
  // Pages are read when requested, so they can name the servers' origins once both are listening.
  const labPages = {};
  const parentPages = {};
  lab = await startSite({ csp: STRICT_CSP, pages: labPages });
  // The parent on another site: "localhost" is a different site from 127.0.0.1 (no shared storage).
  parentSite = await startSite({ host: 'localhost', prefix: '/nothing-here/', csp: null, pages: parentPages });
  parentPages['/cross.html'] = parentPage(`${lab.origin}/embed.html?parentOrigin=${encodeURIComponent(parentSite.origin)}&instance=week8`);
  parentPages['/sandboxed.html'] = parentPage(`${lab.origin}/embed.html?act=2`, 'sandbox="allow-scripts"');
  // A same-origin course page lives on the lab's own server (its inline script needs no CSP there).
  labPages['/course/same.html'] = { body: parentPage('/embed.html'), csp: null };
  labPages['/course/bad.html'] = { body: parentPage('/embed.html?parentOrigin=courses.example.edu&instance=%3Cb%3E'), csp: null };
  // An origin with a path, and a valid origin that is not the embedding page's (walk 4).
  parentPages['/with-path.html'] = parentPage(`${lab.origin}/embed.html?parentOrigin=${encodeURIComponent(`${parentSite.origin}/course/`)}`);
  parentPages['/other-site.html'] = parentPage(`${lab.origin}/embed.html?parentOrigin=${encodeURIComponent('https://courses.example.edu')}`);
  parentPages['/twice.html'] = parentPage(`${lab.origin}/embed.html?parentOrigin=${encodeURIComponent(parentSite.origin)}&parentOrigin=${encodeURIComponent('https://x.example.edu')}`);
  browser = await launch();
});
after(async () => { await browser?.close(); await lab?.close(); await parentSite?.close(); });

const messages = (page, pred) => page.evaluate(() => window.__msgs).then((all) => all.filter((m) => pred(m.data)));
const until = async (fn, what, ms = 20000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) { const v = await fn(); if (v) return v; }
  throw new Error(`timed out waiting for ${what}`);
};
const labFrame = async (page) => {
  const frame = page.frameLocator('#lab');
  await frame.locator('html[data-ready="true"]').waitFor({ timeout: 30000 });
  return { frame, handle: page.frames().find((f) => f !== page.mainFrame()) };
};
async function clean(page, problems, label) {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${label}: ${JSON.stringify(violations, null, 1)}`);
  const frameViolations = await page.frames()[1].evaluate(() => window.__cspViolations);
  assert.deepEqual(frameViolations, [], `${label}: CSP violations in the frame`);
  assert.deepEqual(problems.consoleErrors, [], label);
  assert.deepEqual(problems.foreignRequests, [], label);
}

test('cross-site parent: height in H5P, Canvas and generic dialects, ready, progress and the ledger; hostile messages ignored', async () => {
  const { page, problems } = await shipPage(browser.context, [lab.origin, parentSite.origin]);
  await page.goto(`${parentSite.origin}/cross.html`);
  const { frame, handle } = await labFrame(page);
  // Storage is blocked in a cross-site frame: the lab runs in memory and says so.
  assert.match(await frame.locator('[data-notice="storage"]').textContent(), /^Your progress is kept in this tab only: the browser does not let this page save it here/);
  const ready = await until(async () => (await messages(page, (d) => d.type === 'lab:ready'))[0], 'lab:ready');
  assert.equal(ready.origin, lab.origin);
  assert.equal(ready.data.labId, 'lab08-model-train');
  assert.equal(ready.data.instance, 'week8');
  assert.equal(ready.data.persistent, false);
  const height = Number(await handle.evaluate(() => document.documentElement.dataset.height));
  assert.ok(height > 600, `content height ${height}`);
  await until(async () => (await messages(page, (d) => d.context === 'h5p' && d.action === 'resize' && d.height === height)).length, 'H5P resize');
  assert.ok((await messages(page, (d) => d.context === 'h5p' && d.action === 'hello')).length >= 1, 'H5P hello');
  assert.ok((await messages(page, (d) => d.subject === 'lti.frameResize' && d.height === height)).length >= 1, 'Canvas lti.frameResize');
  assert.ok((await messages(page, (d) => d.type === 'lab:resize' && d.height === height && d.labId === 'lab08-model-train' && d.instance === 'week8')).length >= 1, 'lab:resize');
  // The H5P resizer set the frame's height from the messages: the whole lab shows, no inner scrollbar.
  assert.equal(await page.locator('#lab').evaluate((f) => f.clientHeight), height);
  const first = await until(async () => (await messages(page, (d) => d.type === 'lab:ledger'))[0], 'the first lab:ledger');
  assert.equal(first.data.ledger.lab_id, 'lab08-model-train');
  assert.equal(first.data.ledger.predictions.length, 0);

  // A prediction: the height changes (the ledger opens) and progress and the ledger follow.
  await frame.locator('.prediction input[value="c"]').check();
  await frame.locator('.prediction button[type=submit]').click();
  await frame.locator('.act-unlocked:not([hidden])').waitFor();
  const progress = await until(async () => (await messages(page, (d) => d.type === 'lab:progress' && d.progress.acts.act1.predicted)).at(-1), 'lab:progress');
  assert.equal(progress.data.progress.current_act, 1);
  assert.equal(progress.data.progress.acts.act1.completed, false);
  assert.equal(JSON.stringify(progress.data).includes('predicted_bytes'), false, 'progress carries no answers');
  const ledger = await until(async () => (await messages(page, (d) => d.type === 'lab:ledger' && d.ledger.predictions.length === 1)).at(-1), 'lab:ledger with the prediction');
  assert.equal(ledger.origin, lab.origin);
  assert.equal(ledger.data.ledger.lab_state.acts.act1.prediction.choice, 'c');
  const taller = await until(async () => { const h = Number(await handle.evaluate(() => document.documentElement.dataset.height)); return h > height ? h : 0; }, 'a taller frame');
  await until(async () => (await messages(page, (d) => d.type === 'lab:resize' && d.height === taller)).length, 'lab:resize after the change');
  await until(async () => (await page.locator('#lab').evaluate((f) => f.clientHeight)) === taller, 'the H5P parent to follow');

  // Hostile or malformed messages change nothing and get no answer; a valid request does.
  const before = (await page.evaluate(() => window.__msgs.length));
  await page.evaluate(() => {
    const w = document.getElementById('lab').contentWindow;
    w.postMessage({ type: 'lab:ledger', ledger: { lab_state: { acts: {} } } }, '*');
    w.postMessage({ context: 'h5p', action: '__proto__' }, '*');
    w.postMessage('{"subject":"lti.frameResize","height":1}', '*');
    w.postMessage({ type: 'lab:request-ledger', labId: 'another-lab' }, '*');
    w.postMessage(null, '*');
  });
  await until(async () => (await handle.evaluate(() => document.documentElement.dataset.ignoredMessages)) === '5', 'five ignored messages');
  assert.equal(await page.evaluate(() => window.__msgs.length), before, 'no answer to a hostile message');
  assert.match(await frame.locator('.locked-note').textContent(), /Locked in: C/);
  await page.evaluate(() => document.getElementById('lab').contentWindow.postMessage({ type: 'lab:request-ledger' }, '*'));
  const answered = await until(async () => (await page.evaluate(() => window.__msgs.slice(window.__msgs.length - 3))).find((m) => m.data.type === 'lab:ledger'), 'the requested ledger');
  assert.equal(answered.data.ledger.lab_state.acts.act1.prediction.choice, 'c');

  // Acts switch in place, so the progress kept in memory survives a move to Act 2 and back; focus goes
  // to each new act's heading.
  await frame.locator('.act-nav a', { hasText: 'Act 2' }).click();
  await frame.locator('.act--act2, [data-act="2"]').first().waitFor();
  await handle.waitForFunction(() => document.activeElement.id === 'act-title' && /MFU gap/.test(document.activeElement.textContent));
  await frame.locator('.act-nav a', { hasText: 'Act 1' }).click();
  await frame.locator('.locked-note').waitFor();
  assert.match(await frame.locator('.locked-note').textContent(), /Locked in: C/);
  assert.equal(await handle.evaluate(() => document.activeElement.id), 'act-title');
  await clean(page, problems, 'cross-site frame');
  await page.close();
});

test('same-origin parent: storage works and the ledger is sent without parentOrigin', async () => {
  const { page, problems } = await shipPage(browser.context, [lab.origin]);
  await page.goto(`${lab.origin}/course/same.html`);
  const { frame } = await labFrame(page);
  assert.equal(await frame.locator('[data-notice="storage"]').count(), 0);
  const ledger = await until(async () => (await messages(page, (d) => d.type === 'lab:ledger'))[0], 'lab:ledger');
  assert.equal(ledger.origin, lab.origin);
  assert.ok((await messages(page, (d) => d.type === 'lab:ready' && d.persistent === true)).length === 1);
  await clean(page, problems, 'same-origin frame');
  // A parentOrigin that is not an origin (and a bad instance name): both named, nothing sent at all.
  await page.goto(`${lab.origin}/course/bad.html`);
  const bad = (await labFrame(page)).frame;
  const notice = await bad.locator('[data-notice="embed"]').textContent();
  assert.match(notice, /parentOrigin=courses\.example\.edu: not an origin/);
  assert.match(notice, /instance: use up to 64 letters/);
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(await page.evaluate(() => window.__msgs), []);
  await clean(page, problems, 'frame with a bad parentOrigin');
  await page.close();
});

test('a parentOrigin with a path, naming another site than the embedding page, or given twice: named in a notice, nothing sent', async () => {
  for (const [file, pattern] of [['with-path.html', /parentOrigin=http:\/\/localhost:\d+\/course\/: not an origin/],
    ['other-site.html', /parentOrigin=https:\/\/courses\.example\.edu, but this lab is embedded in a page on http:\/\/localhost:\d+: the lab sends that page nothing/],
    ['twice.html', /^[^]*parentOrigin is given 2 different values \(http:\/\/localhost:\d+, https:\/\/x\.example\.edu\); the lab sends nothing/]]) {
    const { page, problems } = await shipPage(browser.context, [lab.origin, parentSite.origin]);
    await page.goto(`${parentSite.origin}/${file}`);
    const { frame } = await labFrame(page);
    assert.match(await frame.locator('[data-notice="embed"]').textContent(), pattern, file);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await page.evaluate(() => window.__msgs), [], `${file}: nothing reaches the page`);
    await clean(page, problems, file);
    await page.close();
  }
});

test('sandboxed frame (allow-scripts only): the lab runs in memory, says so, and reports its height but not the ledger', async () => {
  const { page, problems } = await shipPage(browser.context, [lab.origin, parentSite.origin]);
  await page.goto(`${parentSite.origin}/sandboxed.html`);
  const { frame, handle } = await labFrame(page);
  assert.match(await frame.locator('#act-title').textContent(), /MFU gap/);
  assert.match(await frame.locator('[data-notice="storage"]').textContent(), /^Your progress is kept in this tab only: the browser does not let this page save it here/);
  // The height can still change while the act settles: read it again on every poll, until a resize
  // message carrying the frame's current height has arrived.
  const resize = await until(async () => {
    const height = Number(await handle.evaluate(() => document.documentElement.dataset.height));
    return (await messages(page, (d) => d.type === 'lab:resize' && d.height === height))[0];
  }, 'lab:resize');
  assert.equal(resize.origin, 'null');
  await until(async () => (await messages(page, (d) => d.type === 'lab:progress')).length, 'lab:progress');
  assert.equal((await messages(page, (d) => d.type === 'lab:ledger')).length, 0, 'no ledger to an unnamed cross-site parent');
  // "Measure it" cannot start a worker without an origin: it says so in words.
  await frame.locator('.act-nav a', { hasText: 'Measure it' }).click();
  await frame.locator('.act--measure').waitFor();
  // It warns before a run, and after a refused one it does not suggest reloading (that cannot help).
  assert.match(await frame.locator('[data-notice="sandboxed-worker"]').textContent(), /sandboxed frame.*open the lab in a tab of its own/);
  await frame.getByRole('button', { name: 'Run', exact: true }).click();
  await frame.locator('.run-status[data-state="error"]').first().waitFor();
  assert.match(await frame.locator('.run-status:not(.run-status--stall) .run-status__text').textContent(), /sandboxed frame .* open the lab in a tab of its own/);
  assert.doesNotMatch(await frame.locator('.run-status:not(.run-status--stall) .run-status__text').textContent(), /reload/i);
  await clean(page, problems, 'sandboxed frame');
  await page.close();
});
