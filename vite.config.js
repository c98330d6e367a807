// Vite bundles web/ into dist/. The engine adapter imports the Emscripten glue from build/wasm via
// the "@engine" alias; Vite emits the .wasm it references as an asset.
import { defineConfig } from 'vite';
import path from 'node:path';

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  resolve: { alias: { '@engine': path.resolve('build/wasm') } },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2020', assetsInlineLimit: 0, sourcemap: false },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', fs: { allow: ['.'] } },
});
