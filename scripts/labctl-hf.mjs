// `labctl evaluate|solve --hf-config CONFIG.json [--scenario FILE]`: the request is the scenario file's
// object (or {}) with {"model": {"hf_config": <the config>}}. Each problem ends the command through
// `fail` with the option named: a missing value, an unreadable, oversized or non-JSON file, a scenario
// that is not an object or already names a model. The config itself is checked by the engine.
import { readFileSync, statSync } from 'node:fs';

const MAX_BYTES = 16 << 20;  // the engine's request limit; a config.json is a few KB

// --opt VALUE or --opt=VALUE; every argument must be one of the two options.
function parseOptions(args, { fail, usage }) {
  const out = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--(hf-config|scenario)(?:=(.*))?$/.exec(args[i]);
    if (!m) fail('arguments', `unexpected argument '${args[i]}' with --hf-config; ${usage}`);
    const value = m[2] !== undefined ? m[2] : args[++i];
    if (!value) fail(m[1], `--${m[1]} needs a file name; ${usage}`);
    if (out[m[1]]) fail(m[1], `--${m[1]} given twice`);
    out[m[1]] = value;
  }
  if (!out['hf-config']) fail('hf-config', `--scenario goes with --hf-config CONFIG.json; ${usage}`);
  return out;
}

function readJson(file, option, fail) {
  let text;
  try {
    if (statSync(file).size > MAX_BYTES) fail(option, `${file} is over 16 MiB: a config.json is a few KB`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (typeof err.code !== 'string') throw err;  // fail()'s Exit (a numeric code), not an fs error
    fail(option, `cannot read ${file}: ${err.code}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    return fail(option, `${file} is not valid JSON: ${err.message}`);
  }
}

export function hfRequest(args, { fail, usage }) {
  const opts = parseOptions(args, { fail, usage });
  const config = readJson(opts['hf-config'], 'hf-config', fail);
  const scenario = opts.scenario ? readJson(opts.scenario, 'scenario', fail) : {};
  if (!scenario || typeof scenario !== 'object' || Array.isArray(scenario))
    fail('scenario', `${opts.scenario} must hold a JSON object (a scenario)`);
  if ('model' in scenario) fail('scenario.model', `${opts.scenario} names a model; with --hf-config the config is the model`);
  return { ...scenario, model: { hf_config: config } };
}
