// Runs each benchmark part (scripts/bench/*.bench.mjs, one JSON object on stdout each) in turn and
// writes bench-results/bench.json with the machine's load before and after. `--only name,name`
// runs a subset. A failing part is recorded as {"error": ...}; the others still run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(',')) : null;

const parts = readdirSync(here).filter((f) => f.endsWith('.bench.mjs')).sort()
  .map((f) => ({ name: f.replace('.bench.mjs', ''), file: path.join(here, f) }))
  .filter((p) => !only || only.has(p.name));

const result = {
  started_at: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model ?? 'unknown',
    total_memory_bytes: os.totalmem(), node: process.version, loadavg_before: os.loadavg() },
  parts: {},
};
for (const part of parts) {
  process.stderr.write(`bench: ${part.name}\n`);
  try {
    const out = execFileSync(process.execPath, [part.file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'] });
    result.parts[part.name] = JSON.parse(out.trim().split('\n').pop());
  } catch (err) {
    result.parts[part.name] = { error: String(err.message).slice(0, 500) };
  }
}
result.machine.loadavg_after = os.loadavg();
result.finished_at = new Date().toISOString();
mkdirSync(path.join(root, 'bench-results'), { recursive: true });
const text = JSON.stringify(result, null, 2) + '\n';
writeFileSync(path.join(root, 'bench-results', 'bench.json'), text);
writeFileSync(path.join(root, 'bench-results', `bench-${result.started_at.replace(/[:.]/g, '-')}.json`), text);
process.stdout.write(text);
