// The workbench's shell in headless Chromium (issue 25): choose a preset, edit a field, paste a model
// (a real config.json where the engine reads them), change the run, share the link and open it in a
// new browser (the same view); bad input of each kind said in words with the text kept and the last
// good model on screen; bad link parameters named; 390 px, dark, keyboard only and axe-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startSite, launch, watchedPage, shipPage, freshLab, openLab, nodeEvaluate, addressSettled, axeViolations, tabTo, focusIsVisible, scrollsSideways, STRICT_CSP } from './helpers.mjs';
import { formatInt } from '../../web/src/format/format.js';
import { STORAGE_KEY } from '../../web/src/state/store.js';

let srv;
let evaluate;
before(async () => { srv = await startServer(); evaluate = await nodeEvaluate(); });
after(async () => { await srv?.close(); });

const LLAMA2_7B = { layers: 32, hidden: 4096, heads: 32, vocab: 32000, context: 4096, mlp_hidden: 11008, mlp: 'swiglu', norm: 'rmsnorm', biases: false, tied_head: false, learned_positions: false };
// TinyLlama 1.1B's config.json as released (Hugging Face TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T).
const TINYLLAMA = { architectures: ['LlamaForCausalLM'], attention_bias: false, bos_token_id: 1, eos_token_id: 2, hidden_act: 'silu', hidden_size: 2048,
  initializer_range: 0.02, intermediate_size: 5632, max_position_embeddings: 2048, model_type: 'llama', num_attention_heads: 32, num_hidden_layers: 22,
  num_key_value_heads: 4, pretraining_tp: 1, rms_norm_eps: 1e-05, rope_scaling: null, rope_theta: 10000.0, tie_word_embeddings: false,
  torch_dtype: 'bfloat16', transformers_version: '4.35.0', use_cache: true, vocab_size: 32000 };
const engineReadsConfigs = () => !(evaluate({ model: { hf_config: { model_type: 'gpt2' } } }).error?.message || '').includes("unknown field 'hf_config'");

const params = (page) => page.locator('[data-testid="wb-parameters"]').textContent();
const modelError = (page) => page.locator('[data-testid="wb-model-error"]');
const runError = (page) => page.locator('[data-testid="wb-run-error"]');
const results = (page) => page.locator('.workbench__results').innerText();
// The store's workbench choices once saved (the store writes a moment after a change), waiting until
// the scenario's `key` is of type `type` (or equals `value`).
async function stored(page, key, { type = null, value = undefined } = {}) {
  const handle = await page.waitForFunction(([k, field, t, v]) => {
    const w = JSON.parse(localStorage.getItem(k) || '{}').workbench;
    const x = w && w.scenario ? w.scenario[field] : undefined;
    return (t ? typeof x === t : x === v) ? w : null;
  }, [STORAGE_KEY, key, type, value]);
  return handle.jsonValue();
}
const countOf = (model) => `${formatInt(evaluate({ model }).model.parameters)} parameters`;
async function openWorkbench(page, query = '?act=workbench') {
  await page.waitForSelector('[data-testid="wb-parameters"]');
  return query;
}
async function openBox(page, testid) {
  const box = page.locator(`[data-testid="${testid}"]`);
  if (!(await box.evaluate((d) => d.open))) await box.locator('summary').click();
  return box;
}
async function pasteText(page, text) {
  await openBox(page, 'wb-paste-box');
  await page.locator('[data-testid="wb-paste"]').evaluate((el, t) => { el.value = t; }, text);
  await page.getByRole('button', { name: 'Use this config' }).click();
}
async function editField(page, label, value) {
  const editor = await openBox(page, 'wb-editor');
  await editor.getByLabel(label, { exact: true }).fill(value);
}

test('choose a preset, edit a field, paste a model, change the run; the shared link opens the same view in a new browser', async () => {
  const b = await launch();
  let link;
  let view;
  try {
    const { page, problems } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=workbench');
    await openWorkbench(page);
    assert.equal(await params(page), countOf('gpt2-small'));
    // A preset: its exact count, in the URL and in the store.
    await page.locator('[data-control="model"]').selectOption('gpt2-medium');
    assert.equal(await params(page), countOf('gpt2-medium'));
    assert.match(await addressSettled(page), /model=gpt2-medium/);
    // Edit a field: the model becomes "Your model" with the engine's count for the edited spec.
    await editField(page, 'Layers', '12');
    const edited = await stored(page, 'model', { type: 'object' }).then((w) => w.scenario.model);
    assert.equal(typeof edited, 'object');
    assert.equal(edited.layers, 12);
    assert.equal(await params(page), countOf(edited));
    assert.match(await page.locator('[data-control="model"] option:checked').textContent(), /^Your model/);
    // Paste a Llama-style model; where the engine reads config.json, TinyLlama's real config instead.
    const hf = engineReadsConfigs();
    await pasteText(page, JSON.stringify(hf ? TINYLLAMA : LLAMA2_7B, null, 2));
    assert.equal(await modelError(page).isHidden(), true, await modelError(page).textContent());
    assert.equal(await params(page), hf ? countOf({ hf_config: TINYLLAMA }) : '6,738,415,616 parameters');
    assert.equal(await page.locator('[data-control="model"] option:checked').textContent(), hf ? 'Your model: llama config' : 'Your model');
    assert.deepEqual(await axeViolations(page), []);
    // The run: GPU, micro-batch, the textbook layout with full checkpointing. The note under Precision
    // starts from what is offered, never naming an option that is not chosen as if it were.
    const precNote = page.locator('[data-testid="wb-precision-note"]');
    assert.equal(await precNote.textContent(), 'Here: PyTorch’s precisions; the chapter’s mixed is under the textbook layout.');
    await page.locator('[data-control="gpu"]').selectOption('rtx4060-laptop-8gb');
    await page.locator('input[data-control="batch"]').fill('2');
    await page.getByLabel('Textbook layout').check();
    assert.equal(await page.locator('[data-testid="wb-run-note"]').textContent(), 'Changed: autocast is PyTorch counting’s, so the chapter’s mixed precision is used.');
    assert.equal(await precNote.textContent(), 'Here: the textbook’s precisions; autocast is under PyTorch counting.');
    await page.locator('select[data-control="ckpt"]').selectOption('full');
    const url = await addressSettled(page);
    assert.match(url, /model=custom&layers=\d+&hidden=\d+/);
    assert.doesNotMatch(url, /%7B|architectures/, 'the link carries spec fields, not the config');
    assert.match(url, /gpu=rtx4060-laptop-8gb&prec=mixed/);
    assert.match(url, /batch=2&.*ckpt=full&count=textbook/);
    const w = await stored(page, 'checkpointing', { value: 'full' });
    assert.equal(w.scenario.framework, 'textbook');
    assert.equal(w.scenario.checkpointing, 'full');
    link = await page.locator('.share__url').inputValue();
    view = { params: await params(page), results: await results(page), url };
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
  } finally { await b.close(); }
  // A new browser (no stored state): the link alone reproduces the view.
  const b2 = await launch();
  try {
    const { page, problems } = await watchedPage(b2.context, srv.origin);
    await openLab(page, link);
    await openWorkbench(page);
    assert.equal(await params(page), view.params);
    assert.equal(await results(page), view.results);
    assert.equal(await addressSettled(page), view.url);
    assert.equal(await page.locator('#notices [data-notice="url"]').count(), 0);
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
  } finally { await b2.close(); }
});

test('bad input: not JSON, 10 MB, negative and absurd sizes, an architecture the lab does not model, bad run values; each named, the text kept, the last good model shown', async () => {
  const b = await launch();
  try {
    const { page, problems } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=workbench');
    await openWorkbench(page);
    const good = { params: await params(page), results: await results(page), url: await addressSettled(page) };
    const unchanged = async (what) => {
      assert.equal(await params(page), good.params, what);
      assert.equal(await results(page), good.results, what);
      assert.equal(await page.locator('.share__url').inputValue().then((u) => new URL(u).search), new URL(good.url).search, what);
    };
    const notJson = '{"num_hidden_layers": 22, "hidden_size": 2048,';
    await pasteText(page, notJson);
    assert.match(await modelError(page).textContent(), /^This is not valid JSON \(.+\)\. A config\.json starts with \{/);
    assert.equal(await page.locator('[data-testid="wb-paste"]').inputValue(), notJson, 'the pasted text stays in the box');
    await unchanged('not JSON');
    await page.locator('[data-testid="wb-paste"]').evaluate((el) => { el.value = `{"pad": "${'x'.repeat(10 * 1024 * 1024)}"}`; });
    await page.getByRole('button', { name: 'Use this config' }).click();
    assert.match(await modelError(page).textContent(), /^This text is 10\.49\sMB, over 256\sKiB \(262,144\sbytes\): a model’s config\.json is a few kB, so it was not read/);
    await unchanged('10 MB');
    // An architecture the lab does not model (a mixture of experts), or, before the engine reads
    // config.json, the engine saying it cannot read one yet.
    await page.locator('[data-testid="wb-paste"]').fill(JSON.stringify({ ...TINYLLAMA, model_type: 'mixtral', num_local_experts: 8 }));
    await page.getByRole('button', { name: 'Use this config' }).click();
    assert.match(await modelError(page).textContent(), engineReadsConfigs() ? /num_local_experts/ : /cannot read config\.json files yet/);
    await unchanged('mixture of experts');
    // Negative and absurd sizes in the field editor.
    await editField(page, 'Layers', '-3');
    assert.match(await modelError(page).textContent(), /^Layers: must be a whole number \(got “-3”\)\. The last model that worked is still shown\.$/);
    await unchanged('negative layers');
    await editField(page, 'Layers', '5000');
    assert.match(await modelError(page).textContent(), /^Layers: must be an integer from 1 to 1000 \(got 5000\)\./);
    await editField(page, 'Vocabulary', '99999999999');
    assert.match(await modelError(page).textContent(), /^Vocabulary: /);
    await unchanged('absurd sizes');
    await editField(page, 'Layers', '12');
    await editField(page, 'Vocabulary', '50257');
    assert.equal(await modelError(page).isHidden(), true);
    // The run: a micro-batch that is not a positive whole number, a custom GPU without memory.
    await page.locator('input[data-control="batch"]').fill('-1');
    assert.match(await runError(page).textContent(), /^The micro-batch must be a whole number from 1 to 65,536/);
    await page.locator('input[data-control="batch"]').fill('8');
    await page.locator('[data-control="gpu"]').selectOption('custom');
    // It starts from the RTX 4090 on screen (its driver-reported 25,757,220,864 B: 25.76 GB), then an impossible memory.
    assert.equal(await page.locator('input[data-control="mem"]').inputValue(), '25.76');
    assert.equal(await page.locator('select[data-control="mem_unit"]').inputValue(), 'gb');
    assert.equal((await stored(page, 'device', { type: 'object' })).scenario.device.capacity_bytes, 25760000000);
    await page.locator('input[data-control="mem"]').fill('0');
    assert.match(await runError(page).textContent(), /^Memory must be a positive number/);
    // With PyTorch counting, checkpointing is off and says why.
    assert.equal(await page.locator('select[data-control="ckpt"]').isDisabled(), true);
    assert.match(await page.locator('[data-testid="wb-ckpt-off"]').textContent(), /^Off: PyTorch counting models no checkpointing/);
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
    // A link's bad parameters: named in the notices and ignored; the good ones applied.
    await openLab(page, `${srv.origin}/?act=workbench&model=gpt5&batch=-1&seq=512&ckpt=full&count=pytorch`);
    await openWorkbench(page);
    const notices = await page.locator('#notices [data-notice="url"] li').evaluateAll((li) => li.map((x) => x.dataset.param));
    assert.deepEqual(notices.sort(), ['batch', 'ckpt', 'model']);
    assert.equal(await page.locator('input[data-control="seq"]').inputValue(), '512');
    // A link's model that parses but the engine refuses: said above the choices, and the defaults shown.
    await openLab(page, `${srv.origin}/?act=workbench&model=custom&layers=2&hidden=64&heads=5&vocab=100&context=64`);
    await openWorkbench(page);
    assert.match(await page.locator('[data-act="workbench"] > [role="alert"]').textContent(), /^Attention heads: .*\(5\)\. The workbench starts from its defaults\.$/);
    assert.equal(await params(page), countOf('gpt2-small'));
  } finally { await b.close(); }
});

test('open a file: a model file is read into the box and used; a 2 MB file is refused by its size, unread', async () => {
  const b = await launch();
  try {
    const { page, problems } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=workbench');
    await openWorkbench(page);
    const box = await openBox(page, 'wb-paste-box');
    const text = JSON.stringify({ ...LLAMA2_7B, name: 'Llama-2 7B (file)' });
    await box.locator('input[type=file]').setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => /6,738,415,616/.test(document.querySelector('[data-testid="wb-parameters"]').textContent));
    assert.equal(await page.locator('[data-testid="wb-paste"]').inputValue(), text);
    assert.equal(await page.locator('[data-control="model"] option:checked').textContent(), 'Your model: Llama-2 7B (file)');
    await box.locator('input[type=file]').setInputFiles({ name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2000000, 32) });
    await page.waitForFunction(() => !document.querySelector('[data-testid="wb-model-error"]').hidden);
    assert.match(await modelError(page).textContent(), /^model\.safetensors is 2\.00\sMB, over 256\sKiB \(262,144\sbytes\): a model’s config\.json is a few kB, so it was not opened/);
    assert.equal(await page.locator('[data-testid="wb-paste"]').inputValue(), text, 'the box keeps what it had');
    assert.equal(await params(page), '6,738,415,616 parameters');
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
  } finally { await b.close(); }
});

test('a model with a shorter learned context caps the sequence length, and the run says so', async () => {
  const b = await launch();
  try {
    const { page } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=workbench&model=custom&layers=32&hidden=4096&heads=32&vocab=32000&context=4096&mlp_hidden=11008&mlp=swiglu&norm=rmsnorm&tied_head=0&learned_positions=0&biases=0&seq=2048');
    await openWorkbench(page);
    assert.equal(await page.locator('input[data-control="seq"]').inputValue(), '2048');
    await page.locator('[data-control="model"]').selectOption('gpt2-small');
    assert.equal(await page.locator('input[data-control="seq"]').inputValue(), '1024');
    assert.equal(await page.locator('[data-testid="wb-run-note"]').textContent(), 'Sequence length set to 1024, this model’s context.');
    assert.equal(await runError(page).isHidden(), true);
    await page.locator('input[data-control="batch"]').fill('4');
    assert.equal(await page.locator('[data-testid="wb-run-note"]').textContent(), '');
  } finally { await b.close(); }
});

test('switching to the workbench in place writes its whole address (its URL code arrives with it); Back returns to Act 1', async () => {
  const b = await launch();
  try {
    const { page, problems } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=1');
    await page.locator('.act-nav__item', { hasText: 'Workbench' }).click();
    await openWorkbench(page);
    await page.locator('[data-control="model"]').selectOption('gpt2-large');
    assert.match(await addressSettled(page), /\?act=workbench&model=gpt2-large&gpu=rtx4090-24gb&.*&units=gb$/);
    await page.goBack();
    await page.waitForSelector('[data-act="1"]');
    assert.match(page.url(), /act=1/);
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
  } finally { await b.close(); }
});

test('a change is computed and drawn in the same task as the input (no later frame)', async () => {
  const b = await launch();
  try {
    const { page } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=workbench');
    await openWorkbench(page);
    const same = await page.evaluate(() => {
      const before = document.querySelector('.workbench__results').textContent;
      const input = document.querySelector('input[data-control="batch"]');
      input.value = '3';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      return { before, after: document.querySelector('.workbench__results').textContent };
    });
    assert.notEqual(same.after, same.before);
  } finally { await b.close(); }
});

test('at 390 px in dark mode: nothing scrolls sideways, axe-core finds nothing with every part open, and the keyboard alone chooses', async () => {
  const b = await launch({ viewport: { width: 390, height: 800 }, colorScheme: 'dark' });
  try {
    const { page, problems } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=workbench');
    await openWorkbench(page);
    assert.equal(await scrollsSideways(page), false);
    assert.deepEqual(await axeViolations(page), []);
    for (const box of ['wb-paste-box', 'wb-editor', 'wb-pytorch']) await openBox(page, box);
    await page.locator('[data-control="gpu"]').selectOption('custom');
    await pasteText(page, '{oops');
    assert.equal(await scrollsSideways(page), false);
    assert.deepEqual(await axeViolations(page), []);
    // Keyboard only: the model chooser, then the micro-batch.
    await page.locator('#act-title').focus();
    await tabTo(page, '[data-control="model"]');
    assert.equal(await focusIsVisible(page), true);
    await page.keyboard.press('ArrowDown');
    assert.equal(await params(page), countOf('gpt2-medium'));
    await tabTo(page, 'input[data-control="batch"]');
    assert.equal(await focusIsVisible(page), true);
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.locator('input[data-control="batch"]').inputValue(), '9');
    assert.match(await addressSettled(page), /batch=9/);
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
  } finally { await b.close(); }
});

// A closed select shows its choice on one line: at phone width, at 200% zoom (640 px) and at 1280 px
// every option of every workbench menu fits, in both ways of counting (their precision menus differ).
for (const width of [390, 640, 1280]) test(`at ${width} px every option of every workbench menu fits its closed select; nothing scrolls sideways`, async () => {
  const b = await launch({ viewport: { width, height: 800 } });
  try {
    const { page } = await watchedPage(b.context, srv.origin);
    await freshLab(page, srv.origin)('?act=workbench&gpu=custom&mem=24&mem_unit=gib&tf16=165&tf32=82&bw=1008');
    await openWorkbench(page);
    for (const box of ['wb-editor', 'wb-pytorch']) await openBox(page, box);
    const overflowing = () => page.locator('[data-act="workbench"] select:visible').evaluateAll((sels) => sels.flatMap((sel) => {
      const ctx = document.createElement('canvas').getContext('2d');
      const cs = getComputedStyle(sel);
      ctx.font = cs.font;
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
      return [...sel.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => `${o.text} (${Math.round(ctx.measureText(o.text).width)} > ${Math.round(room)} px)`);
    }));
    assert.deepEqual(await overflowing(), [], 'PyTorch counting');
    assert.equal(await scrollsSideways(page), false);
    await page.getByLabel('Textbook layout').check();
    assert.deepEqual(await overflowing(), [], 'textbook layout');
    assert.equal(await scrollsSideways(page), false);
  } finally { await b.close(); }
});

test('in <lab-model-train act="workbench"> on a course page (strict CSP): styled, an edit counts, the page’s address untouched, axe clean', async () => {
  const course = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Week 8</title><link rel="icon" href="./course.svg"><script type="module" src="../../lab-model-train.js"></script></head>
<body><main><h1>Your model</h1><lab-model-train id="w" act="workbench" storage="memory"></lab-model-train></main></body></html>`;
  const site = await startSite({ csp: STRICT_CSP, pages: { '/course/w/el.html': course, '/course/w/course.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>' } });
  const b = await launch();
  try {
    const { page, problems } = await shipPage(b.context, [site.origin]);
    await page.goto(`${site.origin}/course/w/el.html`);
    const lab = page.locator('#w');
    await lab.locator('[data-testid="wb-parameters"]').waitFor();
    assert.equal(await lab.locator('.wb-choices').evaluate((el) => getComputedStyle(el).display), 'grid');
    await lab.locator('[data-testid="wb-editor"] summary').click();
    await lab.getByLabel('Layers', { exact: true }).fill('6');
    const spec = evaluate({ model: 'gpt2-small' }).model.spec || evaluate({ model: { base: 'gpt2-small' } }).scenario.model;
    const model = Object.fromEntries(Object.entries({ ...spec, layers: 6 }).filter(([k]) => k !== 'name' && k !== 'biases'));
    assert.equal(await lab.locator('[data-testid="wb-parameters"]').textContent(), countOf(model));
    assert.equal(await lab.getByLabel('Layers', { exact: true }).inputValue(), '6');
    assert.equal(new URL(page.url()).search, '');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  } finally { await b.close(); await site.close(); }
});
