// labctl script / compare: "Check it on your GPU" from the terminal, with the page's own modules
// (web/src/models/pytorch-script.js, pytorch-compare.js). `script SCENARIO` prints the Python script that
// measures the scenario's step; `compare SCENARIO MEASURED` prints the comparison of what it printed
// with the engine's prediction, as JSON. Errors are JSON on stdout, as for every labctl command.
import { readFileSync } from 'node:fs';
import { loadEngine } from './engine-node.mjs';
import { checkFor, pytorchScript, DEFAULT_STEPS } from '../web/src/models/pytorch-script.js';
import { compareMeasured, readMeasured } from '../web/src/models/pytorch-compare.js';
import { EXIT } from './labctl-verify.mjs';

export const CHECK_USAGE = '       labctl script [--steps WARMUP,MEASURED] SCENARIO|-   (the Python script that measures the step)\n' +
  '       labctl compare [SCENARIO] MEASURED   (the script\'s printed JSON against the prediction for SCENARIO,\n' +
  '         or for the scenario it names)';
export const CHECK_EXIT_HELP = 'exit status of script: 0 printed; 3 the scenario is invalid or the script cannot build it;\n' +
  '  of compare: 0 every step\'s peak within 1% and the saved bytes exact; 1 they differ; 3 the scenario or the\n' +
  '  measured JSON is invalid, or it measured another scenario; both: 2 usage; 4 the engine could not be loaded.';

function readText(file, what, fail) {
  try {
    return file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (err) {
    return fail(what, `cannot read ${file === '-' ? 'stdin' : file}: ${err.code || err.message}`, EXIT.invalid);
  }
}

function parseScenario(text, fail) {
  try {
    return JSON.parse(text);
  } catch (err) {
    return fail('scenario', `not JSON: ${err.message}`, EXIT.invalid);
  }
}

function scenarioIn(text, fail) {
  const read = readMeasured(text);
  if (read.error) return fail(read.error.field, read.error.message, EXIT.invalid);
  return read.measured.scenario;
}

async function evaluator(fail) {
  let engine;
  try {
    engine = await loadEngine();
  } catch (err) {
    fail('engine', `the WASM engine could not be loaded: ${String(err.message || err).split('\n')[0]}`, EXIT.engine);
  }
  return (s) => JSON.parse(engine.evaluate(JSON.stringify(s)));
}

// `labctl script`: returns the exit status; `fail` (labctl.mjs) writes the error and throws.
export async function scriptCommand(args, { fail, usage }) {
  let steps = DEFAULT_STEPS;
  const rest = [...args];
  const at = rest.indexOf('--steps');
  if (at >= 0) {
    const m = /^(\d{1,4}),(\d{1,4})$/.exec(rest[at + 1] || '');
    if (!m || +m[1] < 1 || +m[2] < 1) fail('arguments', `--steps takes WARMUP,MEASURED, two whole numbers from 1, e.g. --steps 1,2; ${usage}`);
    steps = { warmup: +m[1], measured: +m[2] };
    rest.splice(at, 2);
  }
  if (rest.length !== 1 || rest[0].startsWith('--')) fail('arguments', `script needs one scenario file (or - for stdin); ${usage}`);
  const scenario = parseScenario(readText(rest[0], 'file', fail), fail);
  const check = checkFor(await evaluator(fail), scenario, steps);
  if (check.error) fail(check.error.field, check.error.message, EXIT.invalid);
  process.stdout.write(pytorchScript(check));
  return EXIT.ok;
}

// `labctl compare`: the comparison JSON; exit 0 agrees, 1 differs.
export async function compareCommand(args, { fail, usage }) {
  if (![1, 2].includes(args.length) || args.some((a) => a.startsWith('--')))
    fail('arguments', `compare needs a measured JSON file, after the scenario file to compare it with; ${usage}`);
  if (args[0] === '-' && args[1] === '-') fail('arguments', `only one of the two files can be stdin; ${usage}`);
  const measured = readText(args[args.length - 1], 'measured', fail); // compareMeasured refuses one over MEASURED_MAX_BYTES
  // One file: the scenario the result names (a user's result re-checked against today's engine).
  const scenario = args.length === 2 ? parseScenario(readText(args[0], 'file', fail), fail) : scenarioIn(measured, fail);
  const out = compareMeasured(await evaluator(fail), scenario, measured);
  if (out.error) fail(out.error.field, out.error.message, EXIT.invalid);
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
  return out.status === 'agrees' ? EXIT.ok : EXIT.differs;
}
