// Firefox and WebKit for the cross-browser end-to-end file, behind one small interface: goto(url),
// run(fn, arg) (fn runs in the page; a returned promise is awaited; return plain data, not DOM nodes,
// which Firefox over BiDi answers as undefined), until(fn, arg, what), errors(), close().
// Firefox: Debian's firefox-esr, headless, over WebDriver BiDi (puppeteer-core). WebKit: WebKitGTK's
// MiniBrowser under Xvfb through WebKitWebDriver (W3C WebDriver, selenium-webdriver). No tool downloads
// a browser. Console errors are recorded in Firefox; WebKitWebDriver has no console log, so page
// errors and rejections are recorded in the page there (from the load on, see `watch`).
import puppeteer from 'puppeteer-core';
import webdriver from 'selenium-webdriver';
import http from 'selenium-webdriver/http/index.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const missing = () => [FIREFOX, WEBKIT_DRIVER, MINIBROWSER, '/usr/bin/Xvfb'].filter((p) => !existsSync(p));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

async function until(run, fn, arg, what, ms = 60000) {
  let last = '';
  for (const end = Date.now() + ms; Date.now() < end; await sleep(150)) {
    // A page in the middle of loading answers nothing; the last error is kept for the message.
    const v = await run(fn, arg).catch((err) => { last = String(err && err.message).slice(0, 300); return null; });
    if (v) return v;
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${last})` : ''}`);
}

export async function openFirefox() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lab08-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: true, userDataDir: dir,
    defaultViewport: { width: 1280, height: 900 },
    extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'network.captive-portal-service.enabled': false },
  });
  const page = await browser.newPage();
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  const run = (fn, arg) => page.evaluate(fn, arg);
  return {
    name: 'Firefox', version: (await browser.version()).replace('firefox/', ''), consoleErrors,
    goto: (url) => page.goto(url), run, errors: async () => consoleErrors, until: (fn, arg, what, ms) => until(run, fn, arg, what, ms),
    close: async () => { await browser.close(); rmSync(dir, { recursive: true, force: true }); },
  };
}

export async function openWebKit() {
  const display = `:${90 + Math.floor(Math.random() * 400)}`;
  const xvfb = spawn('/usr/bin/Xvfb', [display, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], { stdio: 'ignore', env: { ...process.env, DISPLAY: display } });
  const stop = () => { driverProcess.kill(); xvfb.kill(); };
  let driver;
  try {
    const executor = new http.Executor(new http.HttpClient(`http://127.0.0.1:${port}`));
    const caps = new webdriver.Capabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } });
    for (let tries = 0; !driver; tries += 1) {
      try { driver = await webdriver.WebDriver.createSession(executor, caps); } catch (err) { if (tries > 20) throw err; await sleep(250); }
    }
  } catch (err) { stop(); throw err; }
  const consoleErrors = []; // from pages left behind; errors() adds the open page's
  const run = (fn, arg) => driver.executeScript(`return (${fn})(arguments[0]);`, arg);
  const version = (await driver.getCapabilities()).get('browserVersion');
  return {
    name: 'WebKit', version, consoleErrors,
    goto: async (url) => {
      // Errors from before this goto are collected first: the next page starts a fresh list.
      const seen = await run(() => window.__errors || []).catch(() => []);
      consoleErrors.push(...seen);
      await driver.get(url);
      await run(() => {
        if (window.__errors) return;
        window.__errors = [];
        addEventListener("error", (e) => window.__errors.push(`pageerror: ${e.message} (at ${location.pathname}${location.search})`));
        addEventListener('unhandledrejection', (e) => window.__errors.push(`rejection: ${e.reason}`));
      });
    },
    run, until: (fn, arg, what, ms) => until(run, fn, arg, what, ms),
    errors: async () => [...consoleErrors, ...(await run(() => window.__errors || []).catch(() => []))],
    close: async () => {
      await driver.quit().catch(() => {});
      stop();
    },
  };
}
