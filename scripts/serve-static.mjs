// Minimal static file server for dist/ on 127.0.0.1 (also used by the e2e tests). Sends the strict
// Content-Security-Policy the hosted build must satisfy, the right MIME type for .wasm, and
// Access-Control-Allow-Origin: * (public files; a sandboxed iframe without allow-same-origin has an opaque
// origin, so its module scripts, stylesheets and .wasm are cross-origin requests). Options for tests:
// `prefix` serves the folder under a sub-path (/course/labs/08/), `csp` replaces the policy (null: none),
// `pages` adds in-memory files ({ '/parent.html': html }, or { body, csp } with a policy of its own),
// `cors: false` leaves Access-Control-Allow-Origin out (a host that does not send it).
import http from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'";

export function createServer(rootDir, { prefix = '/', csp = CSP, pages = {}, cors = true } = {}) {
  const base = path.resolve(rootDir);
  const headers = (type, policy = csp) => ({ 'Content-Type': type, ...(policy ? { 'Content-Security-Policy': policy } : {}),
    'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', ...(cors ? { 'Access-Control-Allow-Origin': '*' } : {}) });
  return http.createServer((req, res) => {
    let rel;
    try { rel = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { rel = '/'; }
    if (Object.hasOwn(pages, rel)) {
      const page = typeof pages[rel] === 'string' ? { body: pages[rel], csp } : pages[rel];
      const body = Buffer.from(page.body);
      res.writeHead(200, { ...headers(TYPES[path.extname(rel)] || TYPES['.html'], page.csp), 'Content-Length': body.length }).end(body);
      return;
    }
    if (!rel.startsWith(prefix)) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
    rel = `/${rel.slice(prefix.length)}`;
    let file = path.join(base, path.normalize(rel));
    if (!file.startsWith(base)) { res.writeHead(403).end('forbidden'); return; }
    try { if (statSync(file).isDirectory()) file = path.join(file, 'index.html'); } catch { /* 404 below */ }
    let size;
    try { size = statSync(file).size; } catch { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
    res.writeHead(200, { ...headers(TYPES[path.extname(file)] || 'application/octet-stream'), 'Content-Length': size });
    createReadStream(file).pipe(res);
  });
}

export function listen(server, port, host = '127.0.0.1', attempts = 20) {
  return new Promise((resolve, reject) => {
    const tryPort = (p, left) => {
      server.once('error', (err) => (err.code === 'EADDRINUSE' && left > 0 ? tryPort(p + 1, left - 1) : reject(err)));
      server.listen(p, host, () => resolve(server.address().port));
    };
    tryPort(port, attempts);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [dir = 'dist', port = '8080'] = process.argv.slice(2);
  const server = createServer(dir);
  const bound = await listen(server, Number(port));
  console.log(`Lab 08 is being served at http://127.0.0.1:${bound}/  (Ctrl+C to stop)`);
}
