// Act 3's e2e helpers: whether this build carries the multi-device engine (lab_scale, issue 28), and
// the act's flow up to the lock. Without the engine the act says it cannot start and the flow tests
// are skipped with that reason (the act's own "cannot start" state is tested instead).
export const A3 = '[data-act="3"]';

// Waits until Act 3 has either opened its prediction or said it cannot start; true with the engine.
export async function act3Engine(page) {
  await page.waitForSelector(`${A3} .prediction input:not([disabled]), ${A3} .boot__status[role=alert]`);
  return (await page.locator(`${A3} .boot__status[role=alert]`).count()) === 0;
}

export async function lockAct3(page, devices) {
  await page.fill(`${A3} .prediction input`, String(devices));
  await page.click(`${A3} .prediction button[type=submit]`);
  await page.waitForSelector(`${A3} .act-unlocked:not([hidden])`);
}

export const NO_ENGINE = 'this build has no lab_scale (issue 28, S\'s module): Act 3 cannot start';

// Act 3's saved record once it is revealed (`until: 'revealed'`) or complete with both answers in the
// ledger record (`'done'`): the store writes storage a moment after a change.
export async function savedAct3(page, until) {
  const handle = await page.waitForFunction((u) => {
    const st = JSON.parse(localStorage.getItem('lab08-model-train/state') || 'null');
    const a = st && st.acts && st.acts.act3;
    if (!a) return null;
    const ok = u === 'revealed' ? a.revealed : a.completed && a.result && a.result.reflect.length === 2;
    return ok ? a : null;
  }, until);
  return handle.jsonValue();
}
