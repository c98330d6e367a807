// labctl: the JSON facade from the terminal. `labctl <command> [FILE]` reads a request from FILE
// (or stdin) and prints the engine's JSON. Exit 0 on success, 2 on bad input or usage.
// `labctl train --fma [FILE]` runs the fused-multiply-add build (lab_train_fma), the one the
// "Measure it" panel runs in browsers with relaxed SIMD, so its numbers match the panel's; Node 20
// needs --experimental-wasm-relaxed-simd for it, which scripts/labctl passes.
// `labctl script` and `labctl compare` are "Check it on your GPU" (labctl-check.mjs).
// `labctl verify [--json|--csv] FILE|DIR ...` verifies design ledgers in bulk (labctl-verify.mjs).
// `labctl evaluate|solve --hf-config FILE [--scenario FILE]`: a Hugging Face config.json as the model
// (labctl-hf.mjs), the rest of the scenario from --scenario (defaults without it).
// evaluate and solve run lab_scale (lab_core's functions with multi-device scenarios, "parallel"), so a
// scenario the page's Act 3 shows gives the same JSON here; without "parallel" the answers are lab_core's.
//
// Nothing here calls process.exit(): a write to a pipe finishes asynchronously in Node, and exiting
// at once drops what the reader has not taken yet (issue 24: 64 KiB of 160 KB arrived). Every path
// sets process.exitCode and returns, so Node ends only once stdout is flushed.
import { readFileSync } from 'node:fs';
import { loadScaleEngine, loadTrainEngine, loadTrainEngineFma } from './engine-node.mjs';
import { scriptCommand, compareCommand, CHECK_USAGE, CHECK_EXIT_HELP } from './labctl-check.mjs';
import { relaxedSimdSupported } from '../web/src/engine/wasm-features.js';
import { verifyCommand, VERIFY_EXIT_HELP } from './labctl-verify.mjs';
import { hfRequest } from './labctl-hf.mjs';

const COMMANDS = { evaluate: 'evaluate', solve: 'solve', verify: 'verify', train: 'train', script: 'script', compare: 'compare' };
const usage = 'usage: labctl <evaluate|solve|train> [FILE]   (FILE omitted: read stdin)\n' +
  '       labctl <evaluate|solve> --hf-config CONFIG.json [--scenario FILE]   (a Hugging Face config as the model)\n' +
  '       (evaluate and solve take multi-device scenarios: "parallel": {"data_parallel": 8, "zero_stage": 3, ...};\n' +
  '        solve then also answers the fewest devices that train the model, "fewest_devices")\n' +
  '       labctl train --fma [FILE]   (the fused-multiply-add build the browser panel uses)\n' +
  '       labctl verify [--json|--csv] FILE|DIR|- ...   (design ledgers; a DIR: every *.json under it; -: stdin)\n' + CHECK_USAGE;
const help = `${usage}\n\nexit status: evaluate, solve, train: 0 done; 2 bad input or usage (a JSON error on stdout).\n${VERIFY_EXIT_HELP}\n${CHECK_EXIT_HELP}\n`;

// Thrown to end the command with an exit status; its message, if any, is already written.
export class Exit extends Error {
  constructor(code) { super(`exit ${code}`); this.code = code; }
}

// The error as JSON on stdout (one line, no escaped newlines: the usage's lines are joined by ' | '),
// and, when it quotes the usage, the usage as plain text on stderr for a person at a terminal.
export function fail(field, message, code = 2) {
  process.stdout.write(JSON.stringify({ error: { field, message: message.replace(/\n\s*/g, ' | ') } }) + '\n');
  if (message.includes(usage)) process.stderr.write(usage + '\n');
  throw new Exit(code);
}

async function loadOrFail(load) {
  try {
    return await load();
  } catch (err) {
    return fail('engine', `the WASM engine could not be loaded: ${String(err.message || err).split('\n')[0]}`);
  }
}

async function main(command, args) {
  // `labctl verify --help` (or any command's) is a request for the help too (instructor walk: exit 2).
  if (command && (args.includes('--help') || args.includes('-h'))) return main('--help', []);
  if (!command || command === '--help' || command === '-h') {
    (command ? process.stdout : process.stderr).write(help);
    return command ? 0 : 2;
  }
  if (!(command in COMMANDS)) fail('command', `unknown command '${command}'; ${usage}`);
  if (command === 'script') return scriptCommand(args, { fail, usage });
  if (command === 'compare') return compareCommand(args, { fail, usage });
  if (command === 'verify') return verifyCommand(args, { fail, usage });
  if (args.some((a) => a.startsWith('--hf-config') || a.startsWith('--scenario'))) {
    if (command === 'train') fail('arguments', `--hf-config and --scenario apply to evaluate and solve; ${usage}`);
    const engine = await loadOrFail(loadScaleEngine);
    const out = engine[COMMANDS[command]](JSON.stringify(hfRequest(args, { fail, usage })));
    process.stdout.write(out + '\n');
    return JSON.parse(out).error ? 2 : 0;
  }
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
  const engine = await loadOrFail(command === 'train' ? (fma ? loadTrainEngineFma : loadTrainEngine) : loadScaleEngine);
  const fn = engine[COMMANDS[command]];
  if (typeof fn !== 'function') fail('command', `'${command}' is not available in this engine build`);
  const out = fn(text);
  process.stdout.write(out + '\n');
  return JSON.parse(out).error ? 2 : 0;
}

// A reader that goes away (`labctl verify … | head`) is not an error of labctl's: stop writing.
process.stdout.on('error', (err) => { if (err.code !== 'EPIPE') throw err; });
const [command, ...args] = process.argv.slice(2);
try {
  process.exitCode = await main(command, args);
} catch (err) {
  if (!(err instanceof Exit)) {
    process.stdout.write(JSON.stringify({ error: { field: '', message: `internal error: ${String(err && err.message || err).split('\n')[0]}` } }) + '\n');
    process.exitCode = command === 'verify' ? 4 : 2;
  } else process.exitCode = err.code;
}
