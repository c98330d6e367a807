// The web front end's layering rule (tests/web/layers/check-layers.mjs) holds on web/src, and the check
// itself fails on a tree that breaks each part of it (tests/fixtures/web-layers/), as ctest's core_layers
// and core_layers_rejects_* do for the core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkLayers } from '../layers/check-layers.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const checker = fileURLToPath(new URL('../layers/check-layers.mjs', import.meta.url));
const fixture = (name) => fileURLToPath(new URL(`../../fixtures/web-layers/${name}/`, import.meta.url));
const messages = (dir, rule) => checkLayers(dir).problems.filter((p) => !rule || p.rule === rule).map((p) => p.message);

test('web/src imports only its own layer and lower ones, keeps the DOM at ui/ and above and WASM in engine/', () => {
  const { files, imports, problems } = checkLayers(`${root}web/src`);
  assert.deepEqual(problems.filter((p) => p.rule !== 'length').map((p) => p.message), []);
  assert.ok(files >= 100 && imports >= 300, `the whole tree was read (${files} files, ${imports} imports)`);
});

// Fails until the acts' mount functions (issue 29) are split: the message names each function still too long.
test('no function in web/src is over 100 lines', () => {
  assert.deepEqual(messages(`${root}web/src`, 'length'), []);
});

test('the check passes a clean tree: an injected win.localStorage, DOM words in strings and comments, local names, downward imports', () => {
  assert.deepEqual(messages(fixture('clean')), []);
});

// One tree per kind of break, each rejected with exactly its own messages (as CMakeLists.txt's LAB_LAYER_BREAKS).
const BREAKS = [
  ['upward', 'an import up a layer, in each form an import takes', [
    'app.js imports "./embed/boot.js" (line 2): app.js may not import embed (a higher layer)',
    'app.js imports "./main.js" (line 3): app.js may not import main.js (a higher layer)',
    'content/styles.js imports "../ui/styles.css?inline" (line 2): content may not import ui (a higher layer)',
    'format/url.js imports "../ui/styles.css?url" (line 2): format may not import ui (a higher layer)',
    'ledger/later.js imports "../charts/bars.js" (line 2): ledger may not import charts (a higher layer)',
    'models/up.js imports "../acts/act1.js" (line 2): models may not import acts (a higher layer)',
    'state/again.js imports "../engine/engine.js" (line 2): state may not import engine (a higher layer)',
  ]],
  ['dom', 'the DOM below ui/: globals however reached, and d3-selection', [
    'format/later.js uses the DOM global "navigator" (line 2): no DOM below ui/',
    'format/later.js uses the DOM global "requestAnimationFrame" (line 4): no DOM below ui/',
    'ledger/select.js imports "d3-selection" (line 2): no DOM below ui/',
    'models/size.js uses the DOM global "window" (line 2): no DOM below ui/',
    'models/size.js uses the DOM global "localStorage" (line 3): no DOM below ui/',
    'models/size.js uses the DOM global "HTMLCanvasElement" (line 4): no DOM below ui/',
    'state/dom.js uses the DOM global "document" (lines 3, 4): no DOM below ui/',
  ]],
  ['wasm', 'WASM outside engine/: the glue, a .wasm file, a generated module, the WebAssembly global', [
    'acts/compile.js uses the WASM global "WebAssembly" (lines 2, 3): WASM only in engine/',
    'ledger/wasm.js imports "@engine/lab_core.mjs" (line 2): WASM only in engine/',
    'models/bytes.js imports "../../build/wasm/lab_train_fma.wasm" (line 2): WASM only in engine/',
    'models/bytes.js imports "../../build/wasm/lab_ledger.mjs" (line 3): WASM only in engine/',
    'ui/scale.js imports "@engine/lab_scale.mjs" (line 2): WASM only in engine/',
  ]],
  ['stray', 'a module in no layer folder', ['stray.js is in no layer folder', 'widgets/w.js is in no layer folder']],
  ['nolayer', 'an import whose target is in no layer, or that it cannot read', [
    'acts/act1.js imports "../favicon.svg" (line 3), which names no layer',
    'acts/act1.js imports "../../shared/util.js" (line 4), which names no layer',
    'acts/act1.js imports a specifier computed at run time (line 6), which names no layer',
  ]],
  ['long', 'a function over 100 lines, nested or not, and passes one of exactly 100', [
    'acts/long.js: function "mount" is 120 lines (line 4): at most 100',
    'acts/long.js: function "render" is 101 lines (line 5): at most 100',
  ]],
];

for (const [kind, what, expected] of BREAKS) {
  test(`the check rejects ${what} (fixtures/web-layers/${kind})`, () => {
    assert.deepEqual(messages(fixture(kind)), expected);
  });
}

test('alone, the check prints the problems and exits 1, or prints a one-line summary and exits 0', () => {
  const broken = spawnSync(process.execPath, [checker, fixture('stray')], { encoding: 'utf8' });
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /web layering broken .*\n {2}stray\.js is in no layer folder\n {2}widgets\/w\.js is in no layer folder\n$/);
  const clean = spawnSync(process.execPath, [checker, fixture('clean')], { encoding: 'utf8' });
  assert.equal(clean.status, 0, clean.stderr);
  assert.match(clean.stdout, /^web layering holds in .*: 11 files, 19 imports checked; .*\n$/);
});
