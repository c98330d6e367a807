// Act 1's "Check this step on your GPU" (issue 27: the check from Act 1's scenario, when counted the
// PyTorch way): shown only under PyTorch counting; followed, it opens the workbench on Act 1's step,
// whose "Check it on your GPU" downloads the script Node writes for Act 1's scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, launch, watchedPage, freshLab, settle, nodeEvaluate } from './helpers.mjs';
import { toScenario, DEFAULT_CONFIG } from '../../web/src/state/scenario.js';
import { checkFor, pytorchScript } from '../../web/src/models/pytorch-script.js';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

test('under PyTorch counting Act 1 links to the workbench on its own step, whose script is Act 1\'s', async () => {
  const b = await launch({ acceptDownloads: true });
  try {
    const { page, problems } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=1');
    await page.locator('.prediction input[value="b"]').check();
    await page.locator('.prediction button[type=submit]').click();
    await page.waitForSelector('.act-unlocked:not([hidden])');
    const link = page.getByTestId('act1-check-link');
    assert.equal(await link.isVisible(), false, 'hidden in the textbook layout');
    await page.locator('[data-control="fw"] input[value="pytorch"]').check();
    await page.locator('[data-control="opt"] input[value="sgd"]').check();
    await settle(page);
    assert.equal(await link.isVisible(), true);
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('html[data-ready="true"] .wb-check');
    const act1 = toScenario({ ...DEFAULT_CONFIG, framework: 'pytorch', optimizer: 'sgd' });
    const evaluate = await nodeEvaluate();
    await page.locator('.wb-check > summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.wb-check button', { hasText: 'Download' }).click()]);
    assert.equal(readFileSync(await download.path(), 'utf8'), pytorchScript(checkFor(evaluate, act1)));
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await b.close(); }
});
