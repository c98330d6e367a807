// scripts/labctl in a pipe (issue 24): every byte reaches a slow reader, with the right exit status.
// labctl once called process.exit() right after writing, and a pipe's reader got 64 KiB of 160 KB.
// Each output is compared with the same command's output written to a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classOf } from './ledger-engine.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const labctl = path.join(root, 'scripts', 'labctl');
const dir = mkdtempSync(path.join(os.tmpdir(), 'labctl-pipe-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

// stdout to a file: what the command writes in full.
function toFile(args) {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(out, 'w');
  const r = spawnSync(labctl, args, { stdio: ['ignore', fd, 'pipe'], timeout: 120000 });
  closeSync(fd);
  return { status: r.status, bytes: readFileSync(out) };
}

// The reader: a second process at the end of an OS pipe (as in `labctl … | python3 …`; Node's own
// child pipes are sockets with larger buffers, which hid the loss). It starts after `startMs`,
// pauses `pauseMs` after each chunk, writes what it read to a file and prints how many chunks.
const READER = `const fs = require('fs'); const [out, pauseMs, startMs] = process.argv.slice(1); const fd = fs.openSync(out, 'w'); let n = 0;
process.stdin.pause(); process.stdin.on('data', (c) => { n++; fs.writeSync(fd, c); process.stdin.pause(); setTimeout(() => process.stdin.resume(), +pauseMs); });
process.stdin.on('end', () => { fs.closeSync(fd); process.stdout.write(String(n)); }); setTimeout(() => process.stdin.resume(), +startMs);`;
const quote = (a) => `'${String(a).replace(/'/g, "'\\''")}'`;

// labctl's stdout through an OS pipe to the slow reader; labctl's own exit status (PIPESTATUS).
function throughSlowReader(args, { pauseMs = 2, input = null, startMs = 100 } = {}) {
  return new Promise((resolve, reject) => {
    const out = path.join(dir, `piped-${Math.random().toString(36).slice(2)}`);
    const from = input === null ? '' : ` < ${quote(path.join(dir, 'input.json'))}`;
    if (input !== null) writeFileSync(path.join(dir, 'input.json'), input);
    const line = `${quote(labctl)} ${args.map(quote).join(' ')}${from} 2>${quote(`${out}.err`)} | node -e ${quote(READER)} ${quote(out)} ${pauseMs} ${startMs}; exit \${PIPESTATUS[0]}`;
    const child = spawn('bash', ['-c', line], { stdio: ['ignore', 'pipe', 'inherit'] });
    let chunks = '';
    child.stdout.on('data', (c) => { chunks += c; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, bytes: readFileSync(out), chunks: Number(chunks), stderr: readFileSync(`${out}.err`, 'utf8') }));
  });
}

const class100 = path.join(dir, 'class-100');
mkdirSync(class100);
classOf(100).forEach((text, i) => writeFileSync(path.join(class100, `student-${String(i).padStart(3, '0')}.json`), text));

test('verify --json of a class folder: over a megabyte reaches a slow reader whole, exit 0', async () => {
  const file = toFile(['verify', '--json', class100]);
  assert.equal(file.status, 0);
  assert.ok(file.bytes.length >= 1 << 20, `${file.bytes.length} bytes`);
  const piped = await throughSlowReader(['verify', '--json', class100]);
  assert.equal(piped.status, 0, piped.stderr);
  assert.ok(piped.chunks > 16, `${piped.chunks} chunks: the reader was slower than the writer`);
  assert.equal(piped.bytes.length, file.bytes.length);
  assert.ok(piped.bytes.equals(file.bytes));
  assert.equal(JSON.parse(piped.bytes).ledgers.length, 100);
});

// A CSV reader (RFC 4180: quoted cells may hold commas, quotes and line breaks).
function csvRows(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; } else cell += c;
  }
  assert.equal(cell + row.join(''), '', 'the table ends with a full row');
  return rows;
}

// 150 ledgers: a table of about 95 KB, more than a pipe holds (64 KiB), so the reader's pace matters.
const class150 = path.join(dir, 'class-150');
mkdirSync(class150);
classOf(150).forEach((text, i) => writeFileSync(path.join(class150, `student-${String(i).padStart(3, '0')}.json`), text));

test('verify --csv of 150 ledgers into a slow CSV reader gives every row, every time', async () => {
  for (let run = 0; run < 3; run++) {
    const piped = await throughSlowReader(['verify', '--csv', class150], { pauseMs: 1 + run, startMs: 300 + 100 * run });
    assert.equal(piped.status, 0, piped.stderr);
    assert.ok(piped.bytes.length > 1 << 16, `${piped.bytes.length} bytes`);
    const rows = csvRows(piped.bytes.toString('utf8'));
    assert.equal(rows.length, 151, `run ${run}`);
    assert.ok(rows.slice(1).every((r) => r.length === rows[0].length && r[1] === 'ok'));
  }
});

test('a large evaluate answer and every error path (differs, invalid, usage) arrive whole through a pipe', async () => {
  // PyTorch defaults carry the step's timeline: about 50 KB, close to a pipe's 64 KiB buffer.
  const request = JSON.stringify({ model: 'gpt2-xl', framework: 'pytorch', batch_size: 8, precision: 'autocast_bf16' });
  const requestFile = path.join(dir, 'request.json');
  writeFileSync(requestFile, request);
  const file = toFile(['evaluate', requestFile]);
  const piped = await throughSlowReader(['evaluate', '-'], { input: request, pauseMs: 5 });
  assert.equal(piped.status, 0, piped.stderr);
  assert.ok(piped.bytes.equals(file.bytes));
  assert.ok(piped.bytes.length > 40000, `${piped.bytes.length} bytes`);
  assert.ok(!JSON.parse(piped.bytes).error);
  for (const args of [['solve', '-'], ['evaluate', '-']]) {
    const bad = await throughSlowReader(args, { input: '{"batch_size": 0}' });
    assert.equal(bad.status, 2);
    assert.equal(JSON.parse(bad.bytes).error.field, 'batch_size');
  }
  // differs → 1, invalid → 3, usage → 2: the status survives the pipe, and so does the output.
  const edited = path.join(dir, 'edited');
  mkdirSync(edited);
  classOf(60).forEach((text, i) => writeFileSync(path.join(edited, `s-${i}.json`), i === 59 ? JSON.stringify({ ...JSON.parse(text), final_mfu_pct: 50 }) : text));
  for (const [args, status] of [[['verify', '--json', edited], 1], [['verify', '--json', edited, path.join(dir, 'missing.json')], 3], [['verify', '--xml', edited], 2]]) {
    const whole = toFile(args);
    const slow = await throughSlowReader(args);
    assert.equal(whole.status, status, args.join(' '));
    assert.equal(slow.status, status, args.join(' '));
    assert.ok(slow.bytes.equals(whole.bytes), args.join(' '));
    JSON.parse(slow.bytes);
  }
});

test('a reader that stops early (head) ends labctl without an error trace', () => {
  const r = spawnSync('bash', ['-c', `set -o pipefail; "${labctl}" verify --json "${class100}" | head -c 100 > /dev/null`], { encoding: 'utf8', timeout: 120000 });
  assert.doesNotMatch(r.stderr, /EPIPE|Error:|at .*\.mjs/);
});

test('10 MB of verify output reaches a slow reader whole (a class of 300, about 7 s)', { timeout: 180000 }, async () => {
  const big = path.join(dir, 'class-300');
  mkdirSync(big);
  classOf(300).forEach((text, i) => writeFileSync(path.join(big, `s-${String(i).padStart(3, '0')}.json`), text));
  const file = toFile(['verify', '--json', big]);
  assert.equal(file.status, 0);
  const piped = await throughSlowReader(['verify', '--json', big], { pauseMs: 1 });
  assert.equal(piped.status, 0, piped.stderr);
  assert.ok(file.bytes.length >= 10e6, `${file.bytes.length} bytes`);
  assert.ok(piped.bytes.equals(file.bytes));
});
