// How deep untrusted JSON text nests, counted before JSON.parse: a pasted file that nests thousands
// deep would overflow the stack of the code that walks it (the schema check, JSON.stringify). The
// design ledger (ledger/ledger-check.js) and a GPU check's result (models/pytorch-compare.js) both
// refuse text past their limit with this count.

// Deepest nesting of arrays/objects in JSON text, strings skipped; stops counting past `limit`.
export function nestingDepth(text, limit) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') { depth++; if (depth > deepest && (deepest = depth) > limit) return deepest; }
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}
