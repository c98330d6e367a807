// Duplicates in a class folder (labctl verify): two ledgers with the same content under different
// names, or with the same answer times (every prediction and reflection answered at the same
// millisecond: a copy, perhaps with its answers changed), or some of them (one act copied). The
// times come from the student's clock to the millisecond, so a shared one is not chance. Each file
// gets the others it matches, named once, by the strongest kind.
import { createHash } from 'node:crypto';

// JSON with its object keys sorted, so reformatting or reordering a copy does not hide it.
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}
const digest = (s) => createHash('sha256').update(s).digest('hex');

// The student's answers, and when each was given, from the lab state (the record the page keeps).
function answers(ledger) {
  const acts = ledger && ledger.lab_state && ledger.lab_state.acts;
  if (!acts) return [];
  const out = [];
  for (const [act, a] of Object.entries(acts)) {
    for (const [key, rec] of Object.entries(a || {})) {
      if (!rec || typeof rec !== 'object' || typeof rec.answered_at !== 'string') continue;
      const { answered_at: at, ...rest } = rec;
      const chosen = Object.fromEntries(Object.entries(rest).filter(([k]) => /choice$/.test(k)));
      out.push({ what: `${act}.${key}`, at, chosen: canonical(chosen) });
    }
  }
  return out.sort((x, y) => x.what.localeCompare(y.what));
}

// items: [{ file, text, ledger }] (ledger: parsed and readable, else null). Returns Map file →
// [{ file, kind }] with kind 'identical', 'same answers at the same times', 'same answer times' or
// 'some answers at the same times'.
export function findDuplicates(items) {
  const groups = new Map(); // key → files
  const add = (key, file) => { if (!groups.has(key)) groups.set(key, []); groups.get(key).push(file); };
  const keysOf = new Map();
  for (const { file, text, ledger } of items) {
    let content = null;
    try { content = canonical(JSON.parse(text.replace(/^\uFEFF/, ''))); } catch { content = text; }
    const keys = [['identical', digest(content)]];
    const ans = ledger ? answers(ledger) : [];
    if (ans.length) {
      keys.push(['same answers at the same times', digest(canonical(ans))]);
      keys.push(['same answer times', digest(canonical(ans.map((a) => [a.what, a.at])))]);
      // One answer given at the same millisecond in two files (a copy of one act, the rest redone).
      for (const a of ans) keys.push(['some answers at the same times', digest(canonical([a.what, a.at]))]);
    }
    keysOf.set(file, keys);
    for (const [kind, key] of keys) add(`${kind}\n${key}`, file);
  }
  const out = new Map();
  for (const { file } of items) {
    const seen = new Set([file]);
    const matches = [];
    // Strongest kind first: an identical copy is not listed again as having the same answer times.
    for (const [kind, key] of keysOf.get(file)) {
      for (const other of groups.get(`${kind}\n${key}`)) {
        if (seen.has(other)) continue;
        seen.add(other);
        matches.push({ file: other, kind });
      }
    }
    if (matches.length) out.set(file, matches);
  }
  return out;
}
