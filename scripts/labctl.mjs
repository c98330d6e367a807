// labctl: the JSON facade from the terminal. `labctl <command> [FILE]` reads a request from FILE
// (or stdin) and prints the engine's JSON. Exit 0 on success, 2 on bad input or usage.
import { readFileSync } from 'node:fs';
import { loadEngine, loadTrainEngine } from './engine-node.mjs';

const COMMANDS = { evaluate: 'evaluate', solve: 'solve', verify: 'verify', train: 'train' };
const usage = 'usage: labctl <evaluate|solve|verify|train> [FILE]   (FILE omitted: read stdin)';

function fail(field, message) {
  process.stdout.write(JSON.stringify({ error: { field, message } }) + '\n');
  process.exit(2);
}

const [command, file, ...rest] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h') {
  process.stderr.write(usage + '\n');
  process.exit(command ? 0 : 2);
}
if (!(command in COMMANDS)) fail('command', `unknown command '${command}'; ${usage}`);
if (rest.length) fail('arguments', `unexpected extra arguments: ${rest.join(' ')}; ${usage}`);

let text;
try {
  text = file && file !== '-' ? readFileSync(file, 'utf8') : readFileSync(0, 'utf8');
} catch (err) {
  fail('file', `cannot read ${file || 'stdin'}: ${err.code || err.message}`);
}

const engine = command === 'train' ? await loadTrainEngine() : await loadEngine();
const fn = engine[COMMANDS[command]];
if (typeof fn !== 'function') fail('command', `'${command}' is not available in this engine build`);
const out = fn(text);
process.stdout.write(out + '\n');
process.exit(JSON.parse(out).error ? 2 : 0);
