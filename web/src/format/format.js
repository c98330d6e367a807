// Pure number formatting for the lab (no DOM): bytes in GB (1e9) or GiB (2^30), ratios, percents,
// integers. Every number passed in comes from the engine; this module only decides how it reads.
// See tests/web/unit/format.test.mjs.

export const UNITS = Object.freeze({
  gb: Object.freeze({ id: 'gb', bytes: 1e9, label: 'GB', name: 'gigabytes (10^9 bytes)' }),
  gib: Object.freeze({ id: 'gib', bytes: 2 ** 30, label: 'GiB', name: 'gibibytes (2^30 bytes)' }),
});

export function unitOf(units) {
  return UNITS[units] || UNITS.gb;
}

// The lab's one number rule: two decimals always, thousands separators ("2,113.93 GB", "32.13 GB"),
// a true minus sign. Each figure is rounded once, from exact bytes; sums of rounded terms go through
// formatSum so that a sentence either adds up on screen or says "≈".
const fixed2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatNumber2(x) {
  if (!Number.isFinite(x)) return '—';
  return fixed2.format(x).replace('-', '−');
}

export function formatAmount(bytes, units = 'gb') {
  const x = bytes / unitOf(units).bytes;
  if (!Number.isFinite(x)) return '—';
  if (x !== 0 && Math.abs(x) < 0.005) return x > 0 ? '<0.01' : '>−0.01';
  return formatNumber2(x);
}

// The value as shown, in hundredths of the unit (an integer): what a reader adds up.
export function shownHundredths(bytes, units = 'gb') {
  return Math.round(Number(fixed2.format(bytes / unitOf(units).bytes).replace(/,/g, '')) * 100);
}

// Terms and their total, each rounded from exact bytes. `op` is "=" when the shown terms add up to
// the shown total, "≈" when rounding makes them differ (never a sum that does not add up).
// total defaults to the exact sum of the terms.
export function formatSum(termBytes, units = 'gb', totalBytes = termBytes.reduce((a, b) => a + b, 0)) {
  const shown = termBytes.reduce((a, b) => a + shownHundredths(b, units), 0);
  const exact = shown === shownHundredths(totalBytes, units);
  return { terms: termBytes.map((b) => formatBytes(b, units)), total: formatBytes(totalBytes, units), op: exact ? '=' : '≈', exact };
}

// What the terms add to as a reader adds the shown amounts ("13.77 GB" where each is rounded from
// bytes): the note a table shows when that is not its rounded total.
export function shownSumText(termBytes, units = 'gb') {
  const hundredths = termBytes.reduce((a, b) => a + shownHundredths(b, units), 0);
  return `${formatNumber2(hundredths / 100)}${UNIT_SPACE}${unitOf(units).label}`;
}

// "a + b = c" (or "a + b ≈ c") from labelled terms: [{ label?, bytes }]; labels go before amounts.
export function sumText(terms, units = 'gb', totalBytes) {
  const s = formatSum(terms.map((t) => t.bytes), units, totalBytes);
  const parts = terms.map((t, i) => (t.label ? `${t.label} ${s.terms[i]}` : s.terms[i]));
  return `${parts.join(' + ')} ${s.op} ${s.total}`;
}

// A number and its unit are joined by a no-break space (U+00A0), so a line never ends between them.
// Text that leaves the screen (a saved ledger, the report summary) goes through plainText first.
export const UNIT_SPACE = '\u00a0';
export const plainText = (text) => text.replace(/\u00a0/g, ' ');

// The same for words written by hand ("the V100 32 GB", "(10^9 bytes)", "1,024 tokens", "125 TFLOP/s",
// "1.05 s"): a digit, a space and a unit become digit, no-break space, unit. ui/dom.js applies it to all
// text it writes. A unit must stand alone ("2 s" is seconds, "2 steps" is not).
const UNIT_WORDS = ['GB', 'GiB', 'MB', 'MiB', 'kB', 'KiB', 'B', 'bytes', 'tokens/s', 'tokens', 'PFLOP/s', 'TFLOP/s', 'GFLOP/s',
  'MFLOP/s', 'FLOP/s', 'FLOP', 's', 'ms', 'h'];
const UNIT_GAP = new RegExp(String.raw`(\d) (?=(?:${UNIT_WORDS.map((u) => u.replace('/', '\\/')).join('|')})(?![\w/]))`, 'g');
export const keepUnits = (text) => (text.includes(' ') ? text.replace(UNIT_GAP, `$1${UNIT_SPACE}`) : text);

// A duration: seconds with two decimals, milliseconds below 0.1 s so a short step never reads as
// "0.00 s" ("0.16 s", "18.52 ms").
export function formatSeconds(seconds) {
  if (!Number.isFinite(seconds)) return '—';
  return Math.abs(seconds) < 0.1 ? `${formatNumber2(seconds * 1000)}${UNIT_SPACE}ms` : `${formatNumber2(seconds)}${UNIT_SPACE}s`;
}

export function formatBytes(bytes, units = 'gb') {
  return `${formatAmount(bytes, units)}${UNIT_SPACE}${unitOf(units).label}`;
}

// "about 6 GB": whole units, one decimal below 1.
export function formatBytesApprox(bytes, units = 'gb') {
  const u = unitOf(units);
  const x = bytes / u.bytes;
  if (x === 0) return `0${UNIT_SPACE}${u.label}`;
  const text = Math.abs(x) < 1 ? x.toFixed(1) : intFormat.format(Math.round(x));
  return `${text}${UNIT_SPACE}${u.label}`;
}

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(n) {
  if (!Number.isFinite(n)) return '—';
  return intFormat.format(Math.round(n));
}

// 2.0×, 12×: one decimal below 10. A ratio that is not exactly 1 never reads as "1.0×": near 1 it
// gets more decimals until it differs from 1 (1.01×, 1.04×, 0.99×, up to four decimals).
export function formatRatio(r) {
  if (!Number.isFinite(r)) return '—';
  if (r >= 10) return `${intFormat.format(Math.round(r))}×`;
  let digits = 1;
  while (r !== 1 && digits < 4 && Number(r.toFixed(digits)) === 1) digits += 1;
  return `${r.toFixed(digits)}×`;
}

// Multiples such as 1×, 1.5×, 3× (trailing zeros dropped).
export function formatMultiple(r) {
  if (!Number.isFinite(r)) return '—';
  return `${Number(r.toFixed(2))}×`;
}

export function formatPercent(fraction, digits = 0) {
  if (!Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(digits)}%`;
}

export function formatSteps(steps) {
  return steps >= 1000 ? `~${Math.round(steps / 1000)}K` : `~${steps}`;
}

// Bytes of the tiny reference model: MB/kB (10^6, 10^3) with units 'gb', MiB/KiB with 'gib'; two
// decimals like every other amount.
export function formatSmallBytes(bytes, units = 'gb') {
  if (!Number.isFinite(bytes)) return '—';
  const bin = units === 'gib';
  const big = bin ? 2 ** 20 : 1e6;
  const small = bin ? 1024 : 1e3;
  const abs = Math.abs(bytes);
  if (abs >= big) return `${formatNumber2(bytes / big)}${UNIT_SPACE}${bin ? 'MiB' : 'MB'}`;
  if (abs >= small) return `${formatNumber2(bytes / small)}${UNIT_SPACE}${bin ? 'KiB' : 'kB'}`;
  return `${formatInt(bytes)}${UNIT_SPACE}B`;
}

// A rate in FLOP/s: "6.99 GFLOP/s", "42.1 GFLOP/s", "850 MFLOP/s".
export function formatFlopRate(flopsPerS) {
  if (!Number.isFinite(flopsPerS)) return '—';
  if (flopsPerS >= 1e9) {
    const g = flopsPerS / 1e9;
    return `${g >= 10 ? g.toFixed(1) : g.toFixed(2)}${UNIT_SPACE}GFLOP/s`;
  }
  return `${formatInt(flopsPerS / 1e6)}${UNIT_SPACE}MFLOP/s`;
}

// Axis ticks for small byte amounts: "0", "0.5 MB", "16 MB" (MiB with 'gib'); trailing zeros dropped.
export function formatTickBytes(bytes, units = 'gb') {
  if (bytes === 0) return '0';
  const bin = units === 'gib';
  const big = bin ? 2 ** 20 : 1e6;
  if (Math.abs(bytes) >= big / 10) return `${Number((bytes / big).toFixed(2))} ${bin ? 'MiB' : 'MB'}`;
  const small = bin ? 1024 : 1e3;
  return `${Number((bytes / small).toFixed(1))} ${bin ? 'KiB' : 'kB'}`;
}

// "a, b and c" / "a, b or c": items in a sentence, the last joined by `last`.
export function wordList(items, last = 'and') {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}` : items.join('');
}

// "1 layer", "4 layers", "1,024 tokens": a count with its noun, singular for exactly one.
export function formatCount(n, one, many = `${one}s`) {
  return `${formatInt(n)} ${n === 1 ? one : many}`;
}

// A figure the chapter quotes in GB stays in GB, with GiB beside it when the student reads GiB (a
// re-walk found the chapter's 65 GB shown as "60.54 GiB"); the engine's figure set beside a chapter
// number gets the GB beside it instead (besideChapter), so the two compare in one unit.
export function chapterUnits(bytes, units) {
  return units === 'gib' ? `${formatBytes(bytes, 'gb')} (${formatBytes(bytes, 'gib')})` : formatBytes(bytes, 'gb');
}
export function besideChapter(bytes, units) {
  return units === 'gib' ? `${formatBytes(bytes, 'gib')} (${formatBytes(bytes, 'gb')})` : formatBytes(bytes, 'gb');
}
