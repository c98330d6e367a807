// The workbench's words budget (issue 25): at most 400 words visible at once on the whole page (the
// shell and the results), and at most 150 of them the shell's (its heading, lead and choices) in the
// default view, counted as visibleWords does (innerText: closed disclosures do not count), light
// theme, at 1280 and 390 px; with the defaults, and with a pasted Llama-style model on the T4-class
// laptop GPU (the results' longest states are the results part's to budget); and with "Check it on
// your GPU" showing a result (the user result in tests/fixtures/pytorch/user/ pasted back, CPU).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, watchedPage, freshLab, visibleWords, openLab } from './helpers.mjs';
import { defaultState } from '../../web/src/state/store.js';

const userDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'pytorch', 'user');
const resultText = readFileSync(path.join(userDir, readdirSync(userDir).filter((f) => f.endsWith('.json')).sort()[0]), 'utf8');
const measured = JSON.parse(resultText).scenario;
const RUN_KEYS = ['model', 'device', 'precision', 'optimizer', 'batch_size', 'seq_len', 'checkpointing', 'framework', 'zero_grad', 'optimizer_impl'];
const measuredRun = Object.fromEntries(RUN_KEYS.map((k) => [k, measured[k]]));

// checkPanel: "Check it on your GPU" with a result shown, so that the workbench's own words (about 180
// to 290 in the walks) and the panel stay near the page's 400 (a walk read 463–665 with the table open).
const BUDGET = { page: 400, shell: 150, checkPanel: 170 };
let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

// The shell's words: the workbench section without the results part.
const shellWords = (page) => visibleWords(page, '[data-act="workbench"]', { hide: ['.workbench__results'] });

for (const width of [1280, 390]) {
  test(`at ${width} px the workbench page stays within ${BUDGET.page} words, the shell within ${BUDGET.shell}`, async () => {
    const b = await launch({ viewport: { width, height: 900 }, colorScheme: 'light' });
    try {
      const { page, problems } = await watchedPage(b.context, srv.origin);
      await freshLab(page, srv.origin)('?act=workbench');
      await page.waitForSelector('[data-testid="wb-parameters"]');
      const counts = { page: await visibleWords(page), shell: await shellWords(page) };
      await page.goto(`${srv.origin}/?act=workbench&model=custom&layers=32&hidden=4096&heads=32&vocab=32000&context=4096&mlp_hidden=11008&mlp=swiglu&norm=rmsnorm&tied_head=0&learned_positions=0&biases=0&gpu=rtx4060-laptop-8gb&batch=1&count=textbook&ckpt=full&prec=mixed`);
      await page.waitForSelector('[data-testid="wb-parameters"]');
      counts.customPage = await visibleWords(page);
      counts.customShell = await shellWords(page);
      // The longest state a walk found: out of memory (its speed caveat and the solver's path) with a
      // paste error showing.
      await page.goto(`${srv.origin}/?act=workbench&model=llama-3-8b&gpu=rtx4090-24gb&prec=autocast_bf16&opt=adam&batch=8&seq=1024&ckpt=none&count=pytorch`);
      await page.waitForSelector('.wb-timing-caveat:not([hidden])');
      await page.waitForSelector('.wb-path li');
      const paste = page.locator('[data-testid="wb-paste-box"]');
      await paste.locator('summary').click();
      await page.locator('[data-testid="wb-paste"]').fill('{"hidden_size": 4096,');
      await page.getByRole('button', { name: 'Use this config' }).click();
      await page.waitForSelector('[data-testid="wb-model-error"]:not([hidden])');
      counts.oomPage = await visibleWords(page);
      // A check result shown: the workbench on the measured step (saved progress), the result pasted back.
      const checkPage = await b.context.newPage();
      await checkPage.addInitScript(([k, st]) => {
        if (!sessionStorage.getItem('seeded')) { localStorage.setItem(k, st); sessionStorage.setItem('seeded', '1'); }
      }, ['lab08-model-train/state', JSON.stringify({ ...defaultState(), workbench: { scenario: measuredRun, gpu_unit: 'gb' } })]);
      await openLab(checkPage, `${srv.origin}/?act=workbench`);
      await checkPage.locator('.wb-check > summary').click();
      await checkPage.locator('#wb-check-paste').fill(resultText);
      await checkPage.locator('.wb-check button', { hasText: 'Compare with the prediction' }).click();
      await checkPage.waitForSelector('.wb-check__result:not([hidden])');
      counts.checkResultPage = await visibleWords(checkPage);
      counts.checkPanel = await visibleWords(checkPage, '.wb-check');
      console.log(`words at ${width} px: ${JSON.stringify(counts)}`);
      assert.ok(counts.page <= BUDGET.page && counts.customPage <= BUDGET.page && counts.oomPage <= BUDGET.page && counts.checkResultPage <= BUDGET.page, JSON.stringify(counts));
      assert.ok(counts.shell <= BUDGET.shell && counts.customShell <= BUDGET.shell, JSON.stringify(counts));
      assert.ok(counts.checkPanel <= BUDGET.checkPanel, JSON.stringify(counts));
      assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
    } finally { await b.close(); }
  });
}
