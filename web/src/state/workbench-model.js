// The workbench's model choice, DOM-free: the field editor's fields (the engine's custom-model
// object), reading a pasted config.json (size, JSON, shape), the engine's spec of a model, and the
// engine's error messages in a student's words. The engine checks every value; this module only
// keeps the form, the URL and the store speaking its vocabulary. The form is ui/workbench-model-form.js.
import { formatInt, formatSmallBytes } from '../format/format.js';

// The custom-model fields of the engine's model spec (core/facade README, issue 25's contract), in
// the editor's order. `kind`: int, bool or a list of choices. Fields that today's engine does not
// know are left out of the editor (supportedFields). `sample` is a value that probes for the field.
export const MODEL_FIELDS = [
  { key: 'layers', label: 'Layers', kind: 'int', min: 1, max: 1000 },
  { key: 'hidden', label: 'Hidden size', kind: 'int', min: 1, max: 131072 },
  { key: 'heads', label: 'Attention heads', kind: 'int', min: 1, max: 131072 },
  { key: 'kv_heads', label: 'Key/value heads', kind: 'int', min: 1, max: 131072, probe: 'heads', optional: true },
  { key: 'head_dim', label: 'Head size', kind: 'int', min: 1, max: 131072, probe: 'head_dim', optional: true },
  { key: 'vocab', label: 'Vocabulary', kind: 'int', min: 1, max: 10000000 },
  { key: 'context', label: 'Context length', kind: 'int', min: 1, max: 1048576 },
  { key: 'mlp_hidden', label: 'MLP hidden size', kind: 'int', min: 1, max: 10000000 },
  { key: 'mlp', label: 'MLP', kind: ['gelu', 'swiglu', 'geglu'], words: { gelu: 'GELU', swiglu: 'SwiGLU', geglu: 'GeGLU' } },
  { key: 'norm', label: 'Norm', kind: ['layernorm', 'rmsnorm'], words: { layernorm: 'LayerNorm', rmsnorm: 'RMSNorm' } },
  { key: 'norms_per_layer', label: 'Norms per layer', kind: [2, 4], words: { 2: '2', 4: '4 (Gemma 2)' } },
  { key: 'tied_head', label: 'Output head tied to the embedding', kind: 'bool' },
  { key: 'learned_positions', label: 'Learned position embeddings', kind: 'bool' },
  { key: 'biases', label: 'Biases', kind: 'bool' },
  { key: 'qkv_bias', label: 'Q, K, V biases', kind: 'bool' },
  { key: 'attn_out_bias', label: 'Attention output bias', kind: 'bool' },
  { key: 'mlp_bias', label: 'MLP biases', kind: 'bool' },
  { key: 'norm_bias', label: 'Norm biases', kind: 'bool' },
  { key: 'parallel_residual', label: 'Parallel residual (GPT-NeoX)', kind: 'bool' },
  { key: 'sliding_window', label: 'Sliding window (tokens)', kind: 'int', min: 1, max: 1048576, optional: true },
];
export const FIELD_BY_KEY = new Map(MODEL_FIELDS.map((f) => [f.key, f]));
// Fields every engine version reads (the probe is skipped for them).
const ALWAYS = new Set(['layers', 'hidden', 'heads', 'vocab', 'context', 'mlp_hidden', 'mlp', 'norm', 'tied_head', 'learned_positions', 'biases']);
// Family ids (Hugging Face model_type, as the catalogue gives them) in words; others are shown as given.
const FAMILY_WORDS = { gpt2: 'GPT-2', llama: 'Llama', mistral: 'Mistral', qwen2: 'Qwen2', gemma2: 'Gemma 2', gpt_neox: 'GPT-NeoX', phi3: 'Phi-3', course: 'Course models' };

// The largest config text read (a config.json is 1-5 KB; a tokenizer file pasted by mistake is MBs):
// the engine's own limit and words (core/facade/hf_config.cpp check_size), so the page and labctl
// refuse the same configs the same way.
export const MAX_CONFIG_BYTES = 256 * 1024;
export const CONFIG_LIMIT_WORDS = 'over 256 KiB (262,144 bytes): a model’s config.json is a few kB';

// Which fields and choices the engine reads: each newer one is tried on `baseSpec` and kept when the
// engine accepts it. Returns { fields: [field with the choices it accepts], hfConfig: boolean }.
export function supportedFields(evaluate, baseSpec) {
  const ok = (patch) => !evaluate({ model: { ...baseSpec, ...patch } }).error;
  const fields = [];
  for (const f of MODEL_FIELDS) {
    if (Array.isArray(f.kind)) {
      const choices = f.kind.filter((v) => (ALWAYS.has(f.key) && baseSpec[f.key] === v) || ok({ [f.key]: v }));
      if (choices.length > (ALWAYS.has(f.key) ? 0 : 1)) fields.push({ ...f, kind: choices });
    } else if (ALWAYS.has(f.key)) fields.push(f);
    else {
      const sample = f.kind === 'bool' ? Boolean(baseSpec.biases) : f.probe ? baseSpec[f.probe] || Math.round(baseSpec.hidden / baseSpec.heads) : 512;
      if (ok({ [f.key]: sample })) fields.push(f);
    }
  }
  // Per-projection biases override the `biases` shorthand, so the editor offers one or the other.
  if (fields.some((f) => f.key === 'qkv_bias')) fields.splice(fields.findIndex((f) => f.key === 'biases'), 1);
  const probe = evaluate({ model: { hf_config: { model_type: 'gpt2' } } });
  const hfConfig = !(probe.error && /unknown field/.test(probe.error.message) && probe.error.field === 'model.hf_config');
  return { fields, hfConfig };
}

// The engine's full custom-model object for any model (a catalog id, a custom object, a config): the
// result's model.spec where the engine gives it; else the resolved scenario's model object (a catalog
// id is resolved through {base: id}). null when the engine refuses the model.
export function specOf(evaluate, model) {
  const r = evaluate({ model });
  if (r.error) return null;
  if (r.model && r.model.spec && typeof r.model.spec === 'object') return { ...r.model.spec };
  if (r.scenario && typeof r.scenario.model === 'object') return { ...r.scenario.model };
  return typeof model === 'string' ? specOf(evaluate, { base: model }) : null;
}

// The model object the field editor's values make: every value as the engine expects it (an empty
// optional field is left out). values: { key: string | boolean } as the inputs hold them.
// Returns { model } or { error: { field, message } } for a value that is not a whole number.
export function modelFromFields(fields, values, name) {
  const model = {};
  for (const f of fields) {
    const raw = values[f.key];
    if (raw === undefined) continue;
    if (f.kind === 'bool') model[f.key] = Boolean(raw);
    else if (f.kind === 'int') {
      const text = String(raw).trim();
      if (text === '' && f.optional) continue;
      if (!/^\d{1,9}$/.test(text)) return { error: { field: `model.${f.key}`, message: text === '' ? 'is empty; it needs a whole number' : `must be a whole number (got “${text.slice(0, 20)}”)` } };
      model[f.key] = Number(text);
    } else model[f.key] = f.kind.find((v) => String(v) === String(raw));
  }
  if (name) model.name = name;
  return { model };
}

// Fields that follow others until set on their own: a head size of hidden/heads and as many key/value
// heads as heads (plain multi-head attention) follow an edit of hidden or heads, as a config that
// leaves them out would. prev: the spec on screen; values: the editor's (strings). Returns new values.
export function followDerived(prev, values) {
  const v = { ...values };
  if (!prev || (String(v.hidden) === String(prev.hidden) && String(v.heads) === String(prev.heads))) return v;
  if ('head_dim' in v && prev.head_dim * prev.heads === prev.hidden && String(v.head_dim) === String(prev.head_dim)) v.head_dim = '';
  if ('kv_heads' in v && prev.kv_heads === prev.heads && String(v.kv_heads) === String(prev.kv_heads)) v.kv_heads = String(v.heads);
  return v;
}

// A pasted or loaded config text → { config } (the parsed object) or { error } in words. The text is
// never changed; the caller keeps it in its box.
export function readConfigText(text) {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_CONFIG_BYTES) {
    return { error: `This text is ${formatSmallBytes(bytes)}, ${CONFIG_LIMIT_WORDS}, so it was not read. Is it a weights or tokenizer file?` };
  }
  if (!text.trim()) return { error: 'The box is empty: paste the contents of a config.json.' };
  let config;
  try { config = JSON.parse(text); } catch (err) {
    return { error: `This is not valid JSON (${String(err.message).replace(/^JSON\.parse: /, '').slice(0, 120)}). A config.json starts with { and has "name": value pairs.` };
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    return { error: `A config.json is one JSON object ({ … }), not ${Array.isArray(config) ? 'a list' : `a ${config === null ? 'null' : typeof config}`}.` };
  }
  return { config };
}

// What the engine is asked for a parsed config: a Hugging Face config.json (model_type or
// architectures) as {hf_config}, else the lab's own model object (as labctl prints it).
const HF_KEYS = ['model_type', 'architectures', 'num_hidden_layers', 'hidden_size', 'n_layer', 'n_embd'];
export const isHfConfig = (config) => HF_KEYS.some((k) => k in config);
export function modelFromConfig(config) {
  return isHfConfig(config) ? { hf_config: config } : { ...config };
}

// A name for a pasted model: the config's own name, or its family; null when it has neither.
export function configName(config) {
  const raw = config.name || config._name_or_path || (config.model_type ? `${config.model_type} config` : null);
  return raw ? String(raw).slice(0, 60) : null;
}

// The engine's error for a model, in words: the field named as the student knows it (the editor's
// label, or the config's own key), a colon, then the engine's reason (which may name fields itself).
export function modelErrorText(error) {
  const field = String(error.field || '');
  const message = String(error.message || 'was refused');
  const hf = field.match(/^model\.hf_config\.?(.*)$/);
  if (hf) {
    if (/unknown field 'hf_config'/.test(message)) return 'This version of the lab’s engine cannot read config.json files yet; paste the lab’s own model object, or edit the fields.';
    return hf[1] ? `In your config, “${hf[1]}”: ${message}.` : `Your config: ${message}.`;
  }
  const key = field.replace(/^model\.?/, '');
  const f = FIELD_BY_KEY.get(key);
  if (f) return `${f.label}: ${message}.`;
  return key ? `The model’s “${key}”: ${message}.` : `The model: ${message}.`;
}

// Presets grouped by family for the chooser: [{ family, models: [{ id, name, parameters }] }], in
// catalog order. A catalog without families is one group.
export function presetGroups(models) {
  const groups = [];
  for (const m of models) {
    const family = FAMILY_WORDS[m.family] || m.family || 'Models';
    let g = groups.find((x) => x.family === family);
    if (!g) { g = { family, models: [] }; groups.push(g); }
    g.models.push({ id: m.id, name: m.name, parameters: m.parameters });
  }
  return groups;
}

// "124,439,808 parameters": the exact count, to the unit.
export const parametersText = (n) => `${formatInt(n)} parameters`;
