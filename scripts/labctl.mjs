// labctl: the JSON facade from the terminal. `labctl <command> [FILE]` reads a request from FILE
// (or stdin) and prints the engine's JSON. Exit 0 on success, 2 on bad input or usage.
// `labctl train --fma [FILE]` runs the fused-multiply-add build (lab_train_fma), the one the
// "Measure it" panel runs in browsers with relaxed SIMD, so its numbers match the panel's; Node 20
// needs --experimental-wasm-relaxed-simd for it, which scripts/labctl passes.
import { readFileSync } from 'node:fs';
import { loadEngine, loadTrainEngine, loadTrainEngineFma } from './engine-node.mjs';
import { relaxedSimdSupported } from '../web/src/wasm-features.js';

const COMMANDS = { evaluate: 'evaluate', solve: 'solve', verify: 'verify', train: 'train' };
const usage = 'usage: labctl <evaluate|solve|verify|train> [FILE]   (FILE omitted: read stdin)\n' +
  '       labctl train --fma [FILE]   (the fused-multiply-add build the browser panel uses)';

function fail(field, message) {
  process.stdout.write(JSON.stringify({ error: { field, message } }) + '\n');
  process.exit(2);
}

const [command, ...args] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h') {
  process.stderr.write(usage + '\n');
  process.exit(command ? 0 : 2);
}
if (!(command in COMMANDS)) fail('command', `unknown command '${command}'; ${usage}`);
const fma = args.includes('--fma');
if (fma && command !== 'train') fail('arguments', `--fma applies to train only; ${usage}`);
const [file, ...rest] = args.filter((a) => a !== '--fma');
if (rest.length) fail('arguments', `unexpected extra arguments: ${rest.join(' ')}; ${usage}`);
if (fma && !relaxedSimdSupported())
  fail('fma', 'this Node does not accept WebAssembly relaxed SIMD; run it through scripts/labctl, or node --experimental-wasm-relaxed-simd');

let text;
try {
  text = file && file !== '-' ? readFileSync(file, 'utf8') : readFileSync(0, 'utf8');
} catch (err) {
  fail('file', `cannot read ${file || 'stdin'}: ${err.code || err.message}`);
}

let engine;
try {
  engine = command === 'train' ? await (fma ? loadTrainEngineFma() : loadTrainEngine()) : await loadEngine();
} catch (err) {
  fail('engine', `the WASM engine could not be loaded: ${String(err.message || err).split('\n')[0]}`);
}
const fn = engine[COMMANDS[command]];
if (typeof fn !== 'function') fail('command', `'${command}' is not available in this engine build`);
const out = fn(text);
process.stdout.write(out + '\n');
process.exit(JSON.parse(out).error ? 2 : 0);
