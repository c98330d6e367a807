// The lab in sandboxed frames, with and without allow-same-origin and allow-downloads, on a course page of
// another site and of the lab's own: the design ledger's Download never claims a file the sandbox
// dropped (the ledger's text is offered, selected, to copy instead), the storage notice, acts switched
// in place with focus on the new act's heading; and a host that does not send
// Access-Control-Allow-Origin: a frame without allow-same-origin says what the host must send instead of
// "Loading the engine…" for ever. axe-core inside the frame, no console errors but the expected ones.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startSite, launch, shipPage, STRICT_CSP } from './helpers.mjs';

const parentPage = (src, sandbox) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Week 8 — course page</title><link rel="icon" href="data:,"></head>
<body><main><h1>Week 8: training</h1>
<iframe id="lab" title="Lab 08: Model Training" src="${src}" sandbox="${sandbox}" width="100%" height="900"></iframe></main></body></html>`;

let lab;
let bare; // the same files from a host without Access-Control-Allow-Origin
let parentSite;
let browser;
const SAME = 'allow-scripts allow-same-origin';
const SAME_DL = 'allow-scripts allow-same-origin allow-downloads';
before(async () => {
  const labPages = {};
  const parentPages = {};
  lab = await startSite({ csp: STRICT_CSP, pages: labPages });
  bare = await startSite({ csp: STRICT_CSP, cors: false });
  parentSite = await startSite({ host: 'localhost', prefix: '/nothing-here/', csp: null, pages: parentPages });
  for (const [name, sandbox] of [['same', SAME], ['same-dl', SAME_DL]]) {
    labPages[`/course/${name}.html`] = { body: parentPage('/embed.html?act=ledger', sandbox), csp: null };
    parentPages[`/${name}.html`] = parentPage(`${lab.origin}/embed.html?act=ledger`, sandbox);
  }
  parentPages['/opaque.html'] = parentPage(`${lab.origin}/embed.html?act=ledger`, 'allow-scripts');
  parentPages['/opaque-dl.html'] = parentPage(`${lab.origin}/embed.html?act=ledger`, 'allow-scripts allow-downloads');
  parentPages['/page-same.html'] = parentPage(`${lab.origin}/?act=1`, SAME);
  parentPages['/bare-embed.html'] = parentPage(`${bare.origin}/embed.html`, 'allow-scripts');
  parentPages['/bare-page.html'] = parentPage(`${bare.origin}/`, 'allow-scripts allow-downloads');
  browser = await launch();
});
after(async () => { await browser?.close(); await lab?.close(); await bare?.close(); await parentSite?.close(); });

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function frameViolations(frame) {
  await frame.evaluate(axeSource);
  return frame.evaluate(async () => (await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }))
    .violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })));
}
async function openFrame(url, allowed) {
  const { page, problems } = await shipPage(browser.context, allowed);
  const downloads = [];
  page.on('download', (d) => downloads.push(d));
  await page.goto(url);
  const frame = page.frameLocator('#lab');
  await frame.locator('html[data-ready="true"]').waitFor({ timeout: 30000 });
  return { page, problems, downloads, frame, handle: page.frames().find((f) => f !== page.mainFrame()) };
}
// Presses Download in the frame's ledger panel; returns the status line and the copy box's state.
async function pressDownload(f) {
  await f.frame.locator('[data-act="ledger"]').waitFor();
  await f.frame.getByRole('button', { name: 'Download the ledger (.json)' }).click();
  await f.frame.locator('.ledger-status:not(:empty)').waitFor();
  await new Promise((r) => setTimeout(r, 1500)); // a download, if any, has started by now
  const box = f.frame.locator('[data-copy="ledger"]');
  return {
    status: await f.frame.locator('.ledger-status').first().textContent(),
    boxVisible: await box.isVisible(),
    selected: await box.evaluate((el) => el === document.activeElement && el.value.length > 0 && el.selectionEnd - el.selectionStart === el.value.length),
    ledger: (await box.isVisible()) ? JSON.parse(await box.inputValue()) : null,
  };
}

test('a frame whose sandbox leaves out allow-downloads, readable from the lab’s own origin: no download tried, the ledger selected to copy', async () => {
  const f = await openFrame(`${lab.origin}/course/same.html`, [lab.origin]);
  const r = await pressDownload(f);
  assert.match(r.status, /^✕ This embedded lab may not save files \(its course page does not allow downloads\)\. The ledger is selected in the box below: press Ctrl\+C \(⌘C on a Mac\) to copy it, then paste it into a new file named lab08-design-ledger-\d{4}-\d{2}-\d{2}\.json\.$/);
  assert.doesNotMatch(r.status, /Downloaded/);
  assert.equal(r.boxVisible, true);
  assert.equal(r.selected, true);
  assert.equal(r.ledger.lab_id, 'lab08-model-train');
  assert.equal(f.downloads.length, 0);
  assert.deepEqual(await frameViolations(f.handle), []);
  assert.deepEqual(f.problems.consoleErrors, []);
  await f.page.close();
});

test('the same frame with allow-downloads: the file is saved and the page says so', async () => {
  const f = await openFrame(`${lab.origin}/course/same-dl.html`, [lab.origin]);
  const r = await pressDownload(f);
  assert.match(r.status, /^✓ Downloaded lab08-design-ledger-/);
  assert.equal(r.boxVisible, false);
  assert.equal(f.downloads.length, 1);
  await f.page.close();
});

test('frames on another site’s page, with and without allow-same-origin and allow-downloads: the page cannot tell, so it says so and offers the text', async () => {
  for (const [file, delivered] of [['same.html', false], ['same-dl.html', true], ['opaque.html', false], ['opaque-dl.html', true]]) {
    const f = await openFrame(`${parentSite.origin}/${file}`, [lab.origin, parentSite.origin]);
    assert.equal(await f.frame.locator('[data-notice="storage"]').getAttribute('data-storage'), 'blocked', file);
    const r = await pressDownload(f);
    assert.match(r.status, /^⚠ Your browser was asked to save lab08-design-ledger-\d{4}-\d{2}-\d{2}\.json, but this embedded lab cannot tell whether its course page allows downloads\. If no file arrived, the ledger is selected in the box below/, file);
    assert.doesNotMatch(r.status, /Downloaded/, file);
    assert.equal(r.selected, true, file);
    assert.equal(r.ledger.lab_id, 'lab08-model-train', file);
    assert.equal(f.downloads.length, delivered ? 1 : 0, `${file}: what Chromium did`);
    assert.deepEqual(await frameViolations(f.handle), [], file);
    // Chromium's own console line for a download it blocked is the only console error allowed.
    assert.deepEqual(f.problems.consoleErrors.filter((e) => !/[Dd]ownload/.test(e)), [], file);
    await f.page.close();
  }
});

test('the lab’s own page in a sandboxed frame on another site (no allow-forms): a prediction locks in, acts switch in place, the answer is kept, focus goes to the heading', async () => {
  const f = await openFrame(`${parentSite.origin}/page-same.html`, [lab.origin, parentSite.origin]);
  await f.handle.evaluate(() => { window.__samePage = true; });
  await f.frame.locator('.prediction input[value="c"]').check();
  await f.frame.locator('.prediction button[type=submit]').click();
  await f.frame.locator('.act-unlocked:not([hidden])').waitFor();
  await f.frame.locator('#act-nav a', { hasText: 'Act 2' }).click();
  await f.handle.waitForFunction(() => document.activeElement.id === 'act-title' && /MFU gap/.test(document.activeElement.textContent));
  await f.frame.locator('#act-nav a', { hasText: 'Act 1' }).click();
  await f.frame.locator('.locked-note').waitFor();
  assert.match(await f.frame.locator('.locked-note').textContent(), /Locked in: C/);
  assert.equal(await f.handle.evaluate(() => window.__samePage === true && document.activeElement.id === 'act-title'), true);
  assert.deepEqual(f.problems.consoleErrors, []);
  await f.page.close();
});

test('a host without Access-Control-Allow-Origin, in a frame without allow-same-origin: the frame says what the host must send', async () => {
  for (const file of ['bare-embed.html', 'bare-page.html']) {
    const { page } = await shipPage(browser.context, [bare.origin, parentSite.origin]);
    await page.goto(`${parentSite.origin}/${file}`);
    const frame = page.frameLocator('#lab');
    await frame.locator('#boot.boot--failed[role="alert"]').waitFor({ timeout: 15000 }); // at once, not after the 20 s fallback
    const text = await frame.locator('#boot-status').textContent();
    assert.equal(text, 'The lab’s files could not be loaded. Reload the page; if it still fails, tell your instructor. In a sandboxed frame without allow-same-origin, the server hosting the lab must send the header “Access-Control-Allow-Origin: *” with its files.', file);
    await page.close();
  }
});
