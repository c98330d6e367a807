// Test helper (not a test file): reads a sentence the way a student would and reports every sum
// whose shown terms do not add up to its shown total ("a GB + b GB = c GB" with c ≠ a + b in the
// last shown digit), and amounts that break the one number rule (three decimals, no thousands
// separator). Used by the unit tests and the Chromium tests on the page's text.
// The space before the unit may be a no-break one (U+00A0, as format.js writes it): \s matches both.
// "<0.01 GB" (an amount the formatter shows as below one hundredth) reads as 0, as the formatter adds it.
const AMT = String.raw`(?<![\d,.<])(<0\.01|\d{1,3}(?:,\d{3})*\.\d{2})\s(GB|GiB)`;
// Labels between terms may hold digits ("FP32 master copy"), never an amount or another operator.
const SUM = new RegExp(String.raw`${AMT}((?:\s*\+[^=≈+;:()]*?${AMT})+)\s*=\s*${AMT}`, 'g');
const ONE = new RegExp(AMT, 'g');
const hundredths = (s) => (s.startsWith('<') ? 0 : Math.round(Number(s.replace(/,/g, '')) * 100));

export function sumsThatDoNotAddUp(text) {
  const bad = [];
  for (const m of text.matchAll(SUM)) {
    const amounts = [...m[0].matchAll(ONE)].map((a) => ({ v: hundredths(a[1]), unit: a[2] }));
    const total = amounts.pop();
    const sum = amounts.reduce((a, t) => a + t.v, 0);
    if (sum !== total.v || amounts.some((t) => t.unit !== total.unit)) bad.push(m[0]);
  }
  return bad;
}

// Equations found (so a test can prove it looked at some).
export function sumsIn(text) {
  return [...text.matchAll(SUM)].map((m) => m[0]);
}

export function formatProblems(text) {
  return [
    ...[...text.matchAll(/\d+\.\d{3,}\s(GB|GiB)\b/g)].map((m) => `three decimals: ${m[0]}`),
    ...[...text.matchAll(/(?<![\d,.])\d{4,}\.\d+\s(GB|GiB)\b/g)].map((m) => `no thousands separator: ${m[0]}`),
  ];
}
