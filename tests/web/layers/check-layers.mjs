// The web front end's layering rule, as tests/core/layers/check_layers.cmake checks the core's: a module
// in web/src/<layer>/ imports only its own layer and those listed before it, no DOM below ui/, WASM only
// in engine/, and no function over 100 lines. It parses each file (acorn), so strings and comments never
// count. tests/web/unit/layers.test.mjs runs it on web/src and on tests/fixtures/web-layers/; alone:
//   node tests/web/layers/check-layers.mjs [DIR]    (DIR: web/src by default)
// prints each problem and exits 1, or prints a one-line summary and exits 0.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acorn from 'acorn';

// The layers, lowest first. A file's layer is its first folder under web/src, or the root file itself.
export const LAYERS = [
  'format', // numbers and words, scoring
  'content', // questions, options and feedback texts, read by the acts and the design ledger alike
  'state', // scenario, store, URL state, schema
  'engine', // the only code that touches WASM
  'models', // DOM-free view models
  'ledger', // the design ledger: build, check, re-score
  'ui', // DOM widgets: the first layer that may touch the page
  'charts', // one file per chart
  'acts', // one file per act
  'app.js', // the root file that mounts the acts
  'embed', // the custom element, the iframe page and the boot code
  'main.js', // the root file the page loads
];
// The layers below ui/ stay DOM-free, so they run (and are unit-tested) in Node.
export const DOM_FREE_LAYERS = LAYERS.slice(0, LAYERS.indexOf('ui'));
// The one layer that may load or name the WASM engine (web/README.md: one engine adapter).
export const WASM_LAYER = 'engine';
// Browser globals that are the DOM. An injected `win.localStorage` is a property, not one of these.
export const DOM_GLOBALS = new Set(['document', 'window', 'navigator', 'location', 'history', 'localStorage',
  'sessionStorage', 'customElements', 'requestAnimationFrame', 'cancelAnimationFrame', 'getComputedStyle',
  'matchMedia', 'ResizeObserver', 'IntersectionObserver', 'MutationObserver', 'DOMParser', 'ShadowRoot',
  'CSSStyleSheet', 'Element', 'HTMLElement', 'SVGElement', 'Event', 'CustomEvent']);
// ... and every HTML element class (HTMLCanvasElement, HTMLInputElement, ...).
export const DOM_ELEMENT_CLASS = /^HTML\w*Element$/;
// Packages that are the DOM under another name.
export const DOM_PACKAGES = new Set(['d3-selection']);
// The global that compiles WASM.
export const WASM_GLOBALS = new Set(['WebAssembly']);
// Specifiers that load the engine: the "@engine" alias (vite.config.js), a .wasm file, a generated module.
export const WASM_SPECIFIER = /^@engine\/|\.wasm$|(^|\/)lab_(core|ledger|scale|train|train_fma)(\.|$)/;
// The "no function over about 100 lines" (issue 29), counted from its first line to its last.
export const MAX_FUNCTION_LINES = 100;

const isDomGlobal = (name) => DOM_GLOBALS.has(name) || DOM_ELEMENT_CLASS.test(name);
const lineWord = (lines) => (lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`);

// A file's layer from its path under the root ('acts/act1.js' -> 'acts', 'app.js' -> 'app.js'), or null.
export function layerOf(relPath) {
  const parts = relPath.split('/');
  const layer = parts.length === 1 ? parts[0] : parts[0].endsWith('.js') ? null : parts[0];
  return LAYERS.includes(layer) ? layer : null;
}

// Every file under dir, as paths relative to it with forward slashes, in a stable order.
function listFiles(dir, prefix = '') {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      return e.isDirectory() ? listFiles(dir, rel) : [rel];
    });
}

// The names a binding pattern declares (`{ a, b: [c], ...d }` -> a, c, d).
function patternNames(p, out) {
  if (!p) return out;
  if (p.type === 'Identifier') out.add(p.name);
  else if (p.type === 'ObjectPattern') p.properties.forEach((q) => patternNames(q.type === 'RestElement' ? q : q.value, out));
  else if (p.type === 'ArrayPattern') p.elements.forEach((q) => patternNames(q, out));
  else if (p.type === 'AssignmentPattern') patternNames(p.left, out);
  else if (p.type === 'RestElement') patternNames(p.argument, out);
  return out;
}

// `var` names anywhere in a function body (they belong to the function), not inside nested functions.
function varNames(node, out) {
  if (!node || typeof node.type !== 'string' || /Function/.test(node.type)) return out;
  if (node.type === 'VariableDeclaration' && node.kind === 'var') node.declarations.forEach((d) => patternNames(d.id, out));
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) v.forEach((c) => varNames(c, out));
    else if (v && typeof v.type === 'string') varNames(v, out);
  }
  return out;
}

// The names a list of statements declares for its block: let, const, class, function, import.
function blockNames(statements, out = new Set()) {
  for (const s of statements) {
    const d = s.type === 'ExportNamedDeclaration' || s.type === 'ExportDefaultDeclaration' ? s.declaration : s;
    if (!d) continue;
    if (d.type === 'VariableDeclaration' && d.kind !== 'var') d.declarations.forEach((x) => patternNames(x.id, out));
    else if ((d.type === 'FunctionDeclaration' || d.type === 'ClassDeclaration') && d.id) out.add(d.id.name);
    else if (d.type === 'ImportDeclaration') d.specifiers.forEach((x) => out.add(x.local.name));
  }
  return out;
}

// The names a node declares for its own scope, or null where it opens none.
function scopeNames(node) {
  switch (node.type) {
    case 'Program': return varNames(node, blockNames(node.body));
    case 'FunctionDeclaration': case 'FunctionExpression': case 'ArrowFunctionExpression': {
      const names = new Set(node.type === 'FunctionExpression' && node.id ? [node.id.name] : []);
      node.params.forEach((p) => patternNames(p, names));
      return node.body.type === 'BlockStatement' ? varNames(node.body, blockNames(node.body.body, names)) : names;
    }
    case 'BlockStatement': case 'StaticBlock': return blockNames(node.body);
    case 'SwitchStatement': return blockNames(node.cases.flatMap((c) => c.consequent));
    case 'ForStatement': case 'ForInStatement': case 'ForOfStatement': {
      const decl = node.type === 'ForStatement' ? node.init : node.left;
      return decl && decl.type === 'VariableDeclaration' ? blockNames([decl]) : null;
    }
    case 'CatchClause': return patternNames(node.param, new Set());
    case 'ClassExpression': return new Set(node.id ? [node.id.name] : []);
    default: return null;
  }
}

const declared = (scope, name) => scope.some((names) => names.has(name));
// A string the bundler can read: 'x' or `x` (a template with no ${}).
function literalText(node) {
  if (node && node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node && node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}
const isImportMeta = (n) => n && n.type === 'MetaProperty' && n.meta.name === 'import';
const propertyName = (m) => (m.computed ? literalText(m.property) : m.property.name);

// What a function is called, for the length message: its own name or the name it is given.
function functionName(node, parent) {
  if (node.id) return node.id.name;
  if (!parent) return null;
  if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (/^(Property|MethodDefinition|PropertyDefinition)$/.test(parent.type) && !parent.computed) return parent.key.name ?? parent.key.value;
  if (parent.type === 'AssignmentExpression') return parent.left.type === 'Identifier' ? parent.left.name : parent.left.property?.name;
  if (parent.type === 'ExportDefaultDeclaration') return 'default';
  return null;
}

// One file's imports, free identifiers and functions, handed to the visitor's callbacks.
function walkModule(ast, on) {
  const refs = (node, parent, scope, owner) => visit(node, parent, scope, owner);
  // A binding pattern: only its default values and computed keys are read.
  function pattern(p, scope, owner) {
    if (!p) return;
    if (p.type === 'ObjectPattern') p.properties.forEach((q) => { if (q.computed) refs(q.key, q, scope, owner); pattern(q.type === 'RestElement' ? q.argument : q.value, scope, owner); });
    else if (p.type === 'ArrayPattern') p.elements.forEach((q) => pattern(q, scope, owner));
    else if (p.type === 'AssignmentPattern') { pattern(p.left, scope, owner); refs(p.right, p, scope, owner); }
    else if (p.type === 'RestElement') pattern(p.argument, scope, owner);
  }
  function visit(node, parent, outer, owner) {
    if (!node || typeof node.type !== 'string') return;
    const names = scopeNames(node);
    const scope = names ? [...outer, names] : outer;
    const t = node.type;
    if (/Function/.test(t)) {
      const name = functionName(node, parent);
      on.func(node, name, owner);
      node.params.forEach((p) => pattern(p, scope, name ?? owner));
      const body = node.body.type === 'BlockStatement' ? node.body.body : [node.body];
      body.forEach((s) => visit(s, node, scope, name ?? owner));
      return;
    }
    if (t === 'Identifier') { if (!declared(scope, node.name)) on.free(node.name, node); return; }
    if (t === 'ImportDeclaration' || t === 'ExportAllDeclaration' || (t === 'ExportNamedDeclaration' && node.source)) {
      on.imports(literalText(node.source), node);
      return;
    }
    if (t === 'ImportExpression') on.imports(literalText(node.source), node);
    if (t === 'NewExpression' && node.callee.type === 'Identifier' && node.callee.name === 'URL' && !declared(scope, 'URL')
        && node.arguments[1]?.type === 'MemberExpression' && isImportMeta(node.arguments[1].object)) {
      on.imports(literalText(node.arguments[0]), node);
    }
    if (t === 'CallExpression' && node.callee.type === 'MemberExpression' && isImportMeta(node.callee.object)
        && /^glob/.test(propertyName(node.callee) ?? '')) {
      const arg = node.arguments[0];
      (arg?.type === 'ArrayExpression' ? arg.elements : [arg]).forEach((e) => on.imports(literalText(e)?.replace(/^!/, '') ?? null, node));
    }
    if (t === 'MemberExpression' && node.object.type === 'Identifier' && node.object.name === 'globalThis' && !declared(scope, 'globalThis')) {
      const prop = propertyName(node);
      if (prop) on.free(prop, node);
    }
    if (t === 'MetaProperty' || t === 'LabeledStatement' || t === 'BreakStatement' || t === 'ContinueStatement') {
      if (t === 'LabeledStatement') visit(node.body, node, scope, owner);
      return;
    }
    if (t === 'VariableDeclarator') { pattern(node.id, scope, owner); visit(node.init, node, scope, owner); return; }
    if (t === 'CatchClause') { pattern(node.param, scope, owner); visit(node.body, node, scope, owner); return; }
    for (const key of Object.keys(node)) {
      // Names that are not references: a member's or key's name, a class's own name, an export's outer name.
      if (key === 'property' && t === 'MemberExpression' && !node.computed) continue;
      if (key === 'key' && /^(Property|MethodDefinition|PropertyDefinition)$/.test(t) && !node.computed) continue;
      if (key === 'id' && /^Class/.test(t)) continue;
      if (key === 'exported') continue;
      const v = node[key];
      if (Array.isArray(v)) v.forEach((c) => visit(c, node, scope, owner));
      else if (v && typeof v.type === 'string') visit(v, node, scope, owner);
    }
  }
  visit(ast, null, [], null);
}

// The problems in one file (its path relative to the root, its text), and how many imports it has.
export function checkFile(rel, src) {
  const own = layerOf(rel);
  if (!own) return { problems: [{ rule: 'stray', file: rel, line: 1, message: `${rel} is in no layer folder` }], imports: 0 };
  let ast;
  try {
    ast = acorn.parse(src, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  } catch (err) {
    return { problems: [{ rule: 'parse', file: rel, line: err.loc?.line ?? 1, message: `${rel} does not parse: ${err.message}` }], imports: 0 };
  }
  const problems = [];
  const add = (rule, line, message) => problems.push({ rule, file: rel, line, message });
  const globalUses = new Map(); // name -> [lines]
  let imports = 0;
  walkModule(ast, {
    imports(spec, node) {
      imports += 1;
      const line = node.loc.start.line;
      if (spec === null) return add('no-layer', line, `${rel} imports a specifier computed at run time (line ${line}), which names no layer`);
      checkSpecifier(rel, own, spec.replace(/\?.*$/, ''), spec, line, add);
    },
    free(name, node) {
      if ((DOM_FREE_LAYERS.includes(own) && isDomGlobal(name)) || (own !== WASM_LAYER && WASM_GLOBALS.has(name))) {
        if (!globalUses.has(name)) globalUses.set(name, []);
        const lines = globalUses.get(name);
        if (!lines.includes(node.loc.start.line)) lines.push(node.loc.start.line);
      }
    },
    func(node, name, owner) {
      const lines = node.loc.end.line - node.loc.start.line + 1;
      if (lines <= MAX_FUNCTION_LINES) return;
      const what = name ? `function "${name}"` : owner ? `an anonymous function in "${owner}"` : 'an anonymous function';
      add('length', node.loc.start.line, `${rel}: ${what} is ${lines} lines (line ${node.loc.start.line}): at most ${MAX_FUNCTION_LINES}`);
    },
  });
  for (const [name, lines] of globalUses) {
    if (WASM_GLOBALS.has(name)) add('wasm', lines[0], `${rel} uses the WASM global "${name}" (${lineWord(lines)}): WASM only in engine/`);
    else add('dom', lines[0], `${rel} uses the DOM global "${name}" (${lineWord(lines)}): no DOM below ui/`);
  }
  return { problems, imports };
}

// One import's problem, if any: WASM outside engine/, DOM packages below ui/, a target in no or a higher layer.
function checkSpecifier(rel, own, spec, written, line, add) {
  const where = `${rel} imports "${written}" (line ${line})`;
  if (WASM_SPECIFIER.test(spec)) {
    if (own !== WASM_LAYER) add('wasm', line, `${where}: WASM only in engine/`);
    return;
  }
  if (!spec.startsWith('.') && !spec.startsWith('/')) {
    if (DOM_FREE_LAYERS.includes(own) && DOM_PACKAGES.has(spec.split('/')[0])) add('dom', line, `${where}: no DOM below ui/`);
    return; // other packages are allowed anywhere
  }
  const target = spec.startsWith('/') ? null : path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
  const layer = target && !target.startsWith('../') ? layerOf(target) : null;
  if (!layer) add('no-layer', line, `${where}, which names no layer`);
  else if (LAYERS.indexOf(layer) > LAYERS.indexOf(own)) add('upward', line, `${where}: ${own} may not import ${layer} (a higher layer)`);
}

// The whole tree: every .js/.mjs file under dir, its problems in file and line order, and the counts.
export function checkLayers(dir) {
  const files = listFiles(dir).filter((f) => /\.m?js$/.test(f));
  if (files.length === 0) throw new Error(`check-layers: no .js files under ${dir}`);
  const problems = [];
  let imports = 0;
  for (const rel of files) {
    const result = checkFile(rel, fs.readFileSync(path.join(dir, rel), 'utf8'));
    problems.push(...result.problems.sort((a, b) => a.line - b.line));
    imports += result.imports;
  }
  return { files: files.length, imports, problems };
}

// Standalone: print the problems and exit 1, or a summary and exit 0.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const dir = path.resolve(process.argv[2] ?? path.join(root, 'web/src'));
  const { files, imports, problems } = checkLayers(dir);
  if (problems.length) {
    console.error(`web layering broken in ${dir} (layers, lowest first: ${LAYERS.join(', ')}):`);
    problems.forEach((p) => console.error(`  ${p.message}`));
    process.exit(1);
  }
  console.log(`web layering holds in ${dir}: ${files} files, ${imports} imports checked; none points up a layer, `
    + `no DOM below ui/, no WASM outside engine/, no function over ${MAX_FUNCTION_LINES} lines`);
}
