// Vite bundles web/ into dist/. The engine adapter imports the Emscripten glue from build/wasm via
// the "@engine" alias (LAB_WASM_DIR overrides the folder, as in scripts/engine-node.mjs); Vite emits the
// .wasm files they reference as assets, including the training module the "Measure it" worker loads.
// Three modes (scripts/build-single.mjs runs the last two after the normal build):
//   default   the hosted site: index.html and embed.html (the iframe page), chunks loaded on demand
//   element   web/src/embed/element.js → lab-model-train.js, the <lab-model-train> custom element in one
//             module (no chunks: a lazily loaded chunk's CSS would land in the host page, not the
//             element's shadow root), added to the same folder (emptyOutDir off)
//   single    one script and one stylesheet with every .wasm inlined as base64 and the worker as a blob,
//             which scripts/build-single.mjs then inlines into one HTML file that runs from file://
import { defineConfig, transformWithEsbuild } from 'vite';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const wasmDir = path.resolve(process.env.LAB_WASM_DIR || 'build/wasm');
const web = path.resolve('web');

// Single-file build: web/src/engine/wasm-inline.js becomes a module holding `names`' .wasm as base64
// (handed to the Emscripten factory as wasmBinary), and the glue's `new URL("x.wasm", import.meta.url)`
// becomes a plain name, so no .wasm asset is emitted and nothing is ever fetched.
function inlineWasm(names) {
  const stub = path.join(web, 'src/engine/wasm-inline.js');
  return {
    name: 'lab-inline-wasm',
    enforce: 'pre',
    load(id) {
      if (id !== stub) return null;
      const table = names.map((n) => `${JSON.stringify(n)}: ${JSON.stringify(readFileSync(path.join(wasmDir, `${n}.wasm`)).toString('base64'))}`);
      return `const BASE64 = {${table.join(',\n')}};
export function inlineWasm(name) {
  const text = Object.hasOwn(BASE64, name) ? BASE64[name] : null;
  if (!text) return null;
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
  return bytes;
}`;
    },
    transform(code, id) {
      if (!id.startsWith(wasmDir) || !id.endsWith('.mjs')) return null;
      const out = code.replace(/new URL\("([\w.-]+\.wasm)",\s*import\.meta\.url\)/g, '"$1"');
      if (out === code) this.error(`${id}: the glue's .wasm URL was not found, so it cannot be inlined`);
      return { code: out, map: null };
    },
  };
}

// Single-file build: the "Measure it" worker is bundled into the page and started from a blob URL.
function inlineWorker() {
  const stub = path.join(web, 'src/engine/training-worker.js');
  const worker = path.join(web, 'src/engine/engine-worker.js');
  return {
    name: 'lab-inline-worker',
    enforce: 'pre',
    load(id) {
      if (id !== stub) return null;
      return `import InlineWorker from ${JSON.stringify(`${worker}?worker&inline`)};
export function createTrainingWorker() { return new InlineWorker(); }
export function workerMayBeRefused() { return false; }`;
    },
  };
}

// Hosted build: web/src/embed/boot-watchdog.js as a classic script in the head of both pages (a module
// could not report that modules cannot load), minified: it is part of the first load.
function bootWatchdog() {
  const fileName = 'assets/boot-watchdog.js';
  return {
    name: 'lab-boot-watchdog',
    apply: 'build',
    async buildStart() {
      const file = path.join(web, 'src/embed/boot-watchdog.js');
      const { code } = await transformWithEsbuild(readFileSync(file, 'utf8'), file, { minify: true, target: 'es2015', charset: 'utf8' });
      this.emitFile({ type: 'asset', fileName, source: code });
    },
    transformIndexHtml: () => [{ tag: 'script', attrs: { src: `./${fileName}` }, injectTo: 'head-prepend' }],
  };
}

// Every build: the schemas' "description" texts document the files for people (and labctl, which reads
// the sources); the page never reads them, so the bundled copies leave them out (1.4 KB gzipped of the
// first load, which is at its budget). Only string values go: a property named "description" stays.
function leanSchemas() {
  const strip = (v) => {
    if (Array.isArray(v)) return v.map(strip);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).filter(([k, x]) => !(k === 'description' && typeof x === 'string')).map(([k, x]) => [k, strip(x)]));
  };
  return {
    name: 'lab-lean-schemas',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith('.schema.json')) return null;
      return JSON.stringify(strip(JSON.parse(readFileSync(id, 'utf8'))));
    },
  };
}

// Element build: the acts' own `import './x.css'` would be extracted to a stylesheet nobody loads (the
// element adopts the same CSS, imported with ?inline, into its shadow root): leave it out.
function dropCss() {
  return {
    name: 'lab-element-drop-css',
    generateBundle(_, bundle) {
      for (const [name, file] of Object.entries(bundle)) if (file.type === 'asset' && name.endsWith('.css')) delete bundle[name];
    },
  };
}

export default defineConfig(({ mode }) => {
  const base = {
    root: 'web',
    base: './',
    publicDir: false,
    resolve: { alias: { '@engine': wasmDir } },
    // terser, not esbuild: 2.3 KB smaller gzipped on the first load's script, which is at its budget.
    // Without Vite's default safari10 workarounds (the target is ES2020, which Safari 10 never ran) and
    // with a second compress pass, the first load is 174 B smaller gzipped (249,946 -> 249,772 B).
    build: { outDir: '../dist', emptyOutDir: true, target: 'es2020', assetsInlineLimit: 0, sourcemap: false, minify: 'terser',
      terserOptions: { safari10: false, compress: { passes: 2 } },
      rollupOptions: { input: { index: path.join(web, 'index.html'), embed: path.join(web, 'embed.html') } } },
    worker: { format: 'es' },
    server: { host: '127.0.0.1', fs: { allow: ['.'] } },
    plugins: [leanSchemas(), bootWatchdog()],
  };
  if (mode === 'element') {
    base.build.emptyOutDir = false;
    base.plugins = [leanSchemas(), dropCss()];
    base.build.rollupOptions = {
      input: { 'lab-model-train': path.join(web, 'src/embed/element.js') },
      preserveEntrySignatures: false,
      output: { entryFileNames: '[name].js', inlineDynamicImports: true },
    };
  } else if (mode === 'single') {
    base.build.outDir = '../dist-single-parts';
    base.build.modulePreload = { polyfill: false };
    base.build.cssCodeSplit = false;
    base.build.chunkSizeWarningLimit = 4096; // the one script holds the .wasm files
    base.build.rollupOptions = { input: path.join(web, 'index.html'), output: { inlineDynamicImports: true } };
    base.plugins = [leanSchemas(), inlineWasm(['lab_core', 'lab_ledger', 'lab_scale']), inlineWorker()];
    // A classic worker: Chromium refuses module workers from blob: URLs on file:// pages (classic ones run).
    base.worker = { format: 'iife', plugins: () => [inlineWasm(['lab_train', 'lab_train_fma'])], rollupOptions: { output: { inlineDynamicImports: true } } };
  }
  return base;
});
