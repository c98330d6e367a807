// Vite bundles web/ into dist/. The engine adapter imports the Emscripten glue from build/wasm via
// the "@engine" alias (LAB_WASM_DIR overrides the folder, as in scripts/engine-node.mjs); Vite emits the
// .wasm files they reference as assets, including the training module the "Measure it" worker loads.
import { defineConfig } from 'vite';
import path from 'node:path';

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  resolve: { alias: { '@engine': path.resolve(process.env.LAB_WASM_DIR || 'build/wasm') } },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2020', assetsInlineLimit: 0, sourcemap: false },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', fs: { allow: ['.'] } },
});
