// The workbench's words budget (issue 25): at most 400 words visible at once on the whole page (the
// shell and the results), and at most 150 of them the shell's (its heading, lead and choices) in the
// default view, counted as visibleWords does (innerText: closed disclosures do not count), light
// theme, at 1280 and 390 px; with the defaults, and with a pasted Llama-style model on the T4-class
// laptop GPU (the results' longest states are the results part's to budget).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, freshLab, visibleWords } from './helpers.mjs';

const BUDGET = { page: 400, shell: 150 };
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
      console.log(`words at ${width} px: ${JSON.stringify(counts)}`);
      assert.ok(counts.page <= BUDGET.page && counts.customPage <= BUDGET.page && counts.oomPage <= BUDGET.page, JSON.stringify(counts));
      assert.ok(counts.shell <= BUDGET.shell && counts.customShell <= BUDGET.shell, JSON.stringify(counts));
      assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
    } finally { await b.close(); }
  });
}
