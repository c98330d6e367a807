#!/usr/bin/env node
// Builds the two self-contained variants of the lab, after the normal site (`vite build`):
//   the custom element   <site>/lab-model-train.js (vite.config.js mode "element"; its worker and .wasm
//                        files are the site's own assets, so it is served from the same folder)
//   the single file      <site>-single/lab08-model-training.html: vite.config.js mode "single" builds one
//                        script (every .wasm inlined as base64, the "Measure it" worker as a blob) and one
//                        stylesheet, and this script inlines both into the HTML: no request at all, so it
//                        runs opened from disk (file://), where Chromium blocks module files and .wasm fetches.
// Usage: node scripts/build-single.mjs [SITE_DIR]   (default dist; the folder `vite build` wrote)
import { build } from 'vite';
import { readFileSync, writeFileSync, readdirSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SINGLE_NAME = 'lab08-model-training.html';

// An inline <script> ends at the first "</script" and misparses after "<!--": both can only occur in
// strings, comments or regular expressions, where "<\/" and "<\!" mean the same.
export function scriptSafe(code) {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

export function inlineHtml(html, readAsset, readBinary) {
  let out = html.replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  out = out.replace(/(<link rel="icon"[^>]*href=")(?!data:)([^"]+)(")/g, (_, a, href, b) => `${a}data:image/svg+xml;base64,${readBinary(href).toString('base64')}${b}`);
  out = out.replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (_, href) => `<style>\n${readAsset(href).replace(/<\/(style)/gi, '<\\/$1')}\n</style>`);
  out = out.replace(/<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>/g, (_, src) => `<script type="module">\n${scriptSafe(readAsset(src))}\n</script>`);
  if (/<(?:script|link)[^>]+(?:src|href)="(?!data:)[^"]+"/.test(out)) throw new Error('the single-file page still references a file');
  return out;
}

export async function buildEmbeds(siteDir = path.join(root, 'dist'), { logLevel = 'warn' } = {}) {
  const site = path.resolve(siteDir);
  if (!existsSync(path.join(site, 'index.html'))) throw new Error(`${site}/index.html is missing: run vite build first`);
  const configFile = path.join(root, 'vite.config.js');
  await build({ configFile, root: path.join(root, 'web'), mode: 'element', logLevel, build: { outDir: site, emptyOutDir: false } });
  const parts = `${site}-single-parts`;
  const single = `${site}-single`;
  await build({ configFile, root: path.join(root, 'web'), mode: 'single', logLevel, build: { outDir: parts, emptyOutDir: true } });
  const html = inlineHtml(readFileSync(path.join(parts, 'index.html'), 'utf8'), (ref) => readFileSync(path.join(parts, ref), 'utf8'),
    (ref) => readFileSync(path.join(parts, ref)));
  const left = readdirSync(path.join(parts, 'assets')).filter((f) => !/\.(js|css|svg)$/.test(f));
  if (left.length) throw new Error(`the single-file build emitted files it would need to fetch: ${left.join(', ')}`);
  mkdirSync(single, { recursive: true });
  writeFileSync(path.join(single, SINGLE_NAME), html);
  rmSync(parts, { recursive: true, force: true });
  return { element: path.join(site, 'lab-model-train.js'), single: path.join(single, SINGLE_NAME), bytes: Buffer.byteLength(html) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = await buildEmbeds(process.argv[2] || path.join(root, 'dist'));
  console.log(`custom element: ${path.relative(process.cwd(), out.element)}\nsingle file:    ${path.relative(process.cwd(), out.single)} (${(out.bytes / 1e6).toFixed(2)} MB)`);
}
