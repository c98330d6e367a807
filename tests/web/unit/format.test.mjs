// Unit tests for web/src/format/format.js: bytes in GB and GiB, the one two-decimal rule, sums that add up, ratios.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// \u00a0 in the expected strings: the no-break space that joins every amount to its unit.
import { plainText, UNIT_SPACE, formatBytes, formatAmount, formatSum, sumText, shownHundredths, formatBytesApprox, formatRatio, formatMultiple, formatInt, formatPercent, unitOf, formatCount, chapterUnits, besideChapter, formatSeconds } from '../../../web/src/format/format.js';

test('bytes read as GB with two decimals by default', () => {
  assert.equal(formatBytes(12460889600), '12.46\u00a0GB');
  assert.equal(formatBytes(24921779200, 'gb'), '24.92\u00a0GB');
  assert.equal(formatBytes(89e9), '89.00\u00a0GB');
});

test('the GiB toggle divides by 2^30', () => {
  assert.equal(formatBytes(12460889600, 'gib'), '11.61\u00a0GiB');
  assert.equal(formatBytes(34359738368, 'gib'), '32.00\u00a0GiB');
  assert.equal(unitOf('gib').bytes, 1073741824);
});

test('one rule everywhere: two decimals, never three, so the chapter’s 32.125 GB reads 32.13 GB', () => {
  assert.equal(formatBytes(32125000000), '32.13\u00a0GB');
  assert.equal(formatBytes(56.5e9), '56.50\u00a0GB');
  assert.equal(formatAmount(8125000000), '8.13');
  assert.equal(formatAmount(8.275e9), '8.28');
});

test('thousands separators from 1,000 units up (GB, GiB, approximations)', () => {
  assert.equal(formatBytes(2113.93e9), '2,113.93\u00a0GB');
  assert.equal(formatBytes(1e12), '1,000.00\u00a0GB');
  assert.equal(formatBytes(999.994e9), '999.99\u00a0GB');
  assert.equal(formatBytes(1200 * 2 ** 30, 'gib'), '1,200.00\u00a0GiB');
  assert.equal(formatBytesApprox(2113.93e9), '2,114\u00a0GB');
});

test('formatSum says "=" only when the shown terms add up to the shown total, else "≈"', () => {
  // 0.214 + 0.536 = 0.750 exactly, but shown 0.21 + 0.54 = 0.75: adds up.
  assert.deepEqual(formatSum([0.214e9, 0.536e9]), { terms: ['0.21\u00a0GB', '0.54\u00a0GB'], total: '0.75\u00a0GB', op: '=', exact: true });
  // 0.206 + 0.536 = 0.742: shown 0.21 + 0.54 would be 0.75, not 0.74, so the sum says ≈.
  const s = formatSum([205852672, 536870912]);
  assert.deepEqual(s.terms, ['0.21\u00a0GB', '0.54\u00a0GB']);
  assert.equal(s.total, '0.74\u00a0GB');
  assert.equal(s.op, '≈');
  assert.equal(sumText([{ label: 'logits', bytes: 205852672 }, { label: 'reserve', bytes: 536870912 }]), 'logits 0.21\u00a0GB + reserve 0.54\u00a0GB ≈ 0.74\u00a0GB');
  assert.equal(sumText([{ bytes: 6e9 }, { bytes: 6e9 }, { bytes: 12e9 }]), '6.00\u00a0GB + 6.00\u00a0GB + 12.00\u00a0GB = 24.00\u00a0GB');
  // An explicit total that the terms do not reach is never written with "=".
  assert.equal(formatSum([1e9, 1e9], 'gb', 2.5e9).op, '≈');
  assert.equal(shownHundredths(32125000000), 3213);
  assert.equal(shownHundredths(2 ** 30, 'gib'), 100);
});

test('tiny, zero, negative and non-finite values read sensibly', () => {
  assert.equal(formatBytes(0), '0.00\u00a0GB');
  assert.equal(formatBytes(1000), '<0.01\u00a0GB');
  assert.equal(formatBytes(-3.5e9), '−3.50\u00a0GB');
  assert.equal(formatAmount(NaN), '—');
  assert.equal(formatBytes(5e9, 'nonsense'), '5.00\u00a0GB');
});

test('approximate amounts round to whole units, one decimal below 1', () => {
  assert.equal(formatBytesApprox(6230444800), '6\u00a0GB');
  assert.equal(formatBytesApprox(12460889600), '12\u00a0GB');
  assert.equal(formatBytesApprox(24921779200), '25\u00a0GB');
  assert.equal(formatBytesApprox(0), '0\u00a0GB');
  assert.equal(formatBytesApprox(0.42e9), '0.4\u00a0GB');
  assert.equal(formatBytesApprox(12460889600, 'gib'), '12\u00a0GiB');
});

test('ratios, multiples, integers and percents', () => {
  assert.equal(formatRatio(2), '2.0×');
  assert.equal(formatRatio(1.575), '1.6×');
  assert.equal(formatRatio(12.4), '12×');
  assert.equal(formatRatio(Infinity), '—');
  // A ratio other than 1 never reads as no difference (tester walk 2: "FP32 needs 1.0× as much").
  assert.equal(formatRatio(13.52 / 13.36), '1.01×');
  assert.equal(formatRatio(34.56 / 33.30), '1.04×');
  assert.equal(formatRatio(0.97), '0.97×');
  assert.equal(formatRatio(1.0004), '1.0004×');
  assert.equal(formatRatio(1), '1.0×');
  assert.equal(formatRatio(1.05), '1.1×');
  assert.equal(formatMultiple(3), '3×');
  assert.equal(formatMultiple(1.5), '1.5×');
  assert.equal(formatInt(1557611200), '1,557,611,200');
  assert.equal(formatPercent(0.455), '46%');
});

test('the tiny reference model reads in MB / kB (MiB / KiB with the GiB toggle), FLOP/s in G or M', async () => {
  const { formatSmallBytes, formatFlopRate, formatTickBytes } = await import('../../../web/src/format/format.js');
  assert.equal(formatSmallBytes(3271680), '3.27\u00a0MB');
  assert.equal(formatSmallBytes(3271680, 'gib'), '3.12\u00a0MiB');
  assert.equal(formatSmallBytes(729088), '729.09\u00a0kB');
  assert.equal(formatSmallBytes(2048, 'gib'), '2.00\u00a0KiB');
  assert.equal(formatSmallBytes(512), '512\u00a0B');
  assert.equal(formatSmallBytes(0), '0\u00a0B');
  assert.equal(formatFlopRate(6997248997), '7.00\u00a0GFLOP/s');
  assert.equal(formatFlopRate(41.93e9), '41.9\u00a0GFLOP/s');
  assert.equal(formatFlopRate(850e6), '850\u00a0MFLOP/s');
  assert.equal(formatTickBytes(0), '0');
  assert.equal(formatTickBytes(500000), '0.5 MB');
  assert.equal(formatTickBytes(16e6), '16 MB');
  assert.equal(formatTickBytes(13.2e6), '13.2 MB');
  assert.equal(formatTickBytes(20000), '20 kB');
  assert.equal(formatTickBytes(2 ** 21, 'gib'), '2 MiB');
});

test('formatCount: singular for exactly one, thousands separators, an irregular plural', () => {
  assert.equal(formatCount(1, 'layer'), '1 layer');
  assert.equal(formatCount(4, 'layer'), '4 layers');
  assert.equal(formatCount(0, 'layer'), '0 layers');
  assert.equal(formatCount(1024, 'token'), '1,024 tokens');
  assert.equal(formatCount(2, 'batch', 'batches'), '2 batches');
});

test('an amount and its unit never part at a line end; text that leaves the screen gets plain spaces', () => {
  assert.equal(UNIT_SPACE, '\u00a0');
  for (const text of [formatBytes(1e9), formatBytes(1e9, 'gib'), formatBytesApprox(6e9)]) assert.match(text, /\d\u00a0Gi?B$/);
  assert.equal(plainText(`${formatBytes(89e9)} + ${formatBytes(1e9, 'gib')}`), '89.00 GB + 0.93 GiB');
});

test('keepUnits joins a number to a unit written by hand, and nothing else', async () => {
  const { keepUnits } = await import('../../../web/src/format/format.js');
  assert.equal(keepUnits('the V100 32 GB has 34.36 GB (10^9 B) and 500,000 tokens/s'),
    'the V100 32\u00a0GB has 34.36\u00a0GB (10^9\u00a0B) and 500,000\u00a0tokens/s');
  assert.equal(keepUnits('16 B per parameter; 2 GiB; 3 MiB; 7.00 GFLOP/s'), '16\u00a0B per parameter; 2\u00a0GiB; 3\u00a0MiB; 7.00\u00a0GFLOP/s');
  assert.equal(keepUnits('the 125 TFLOP/s peak, 1,024 tokens, 10^14 FLOP/s, 1.05 s and 2 h'),
    'the 125\u00a0TFLOP/s peak, 1,024\u00a0tokens, 10^14\u00a0FLOP/s, 1.05\u00a0s and 2\u00a0h');
  // Not a unit: words that only start like one, option letters after words, units after letters.
  for (const text of ['48 Bytes', '4 GBs', 'answer B', 'FP32 Bfloat', '2 Batches', 'in GB', 'Locked in: B', 'Act 2 shows 3 steps', '4 heads']) assert.equal(keepUnits(text), text);
  assert.equal(keepUnits(''), '');
});

test('figures beside the chapter’s GB numbers: the chapter’s stay in GB, the engine’s get GB beside them in GiB mode', () => {
  assert.equal(chapterUnits(65e9, 'gb'), '65.00\u00a0GB');
  assert.equal(chapterUnits(65e9, 'gib'), '65.00\u00a0GB (60.54\u00a0GiB)');
  assert.equal(besideChapter(12460889600, 'gb'), '12.46\u00a0GB');
  assert.equal(besideChapter(12460889600, 'gib'), '11.61\u00a0GiB (12.46\u00a0GB)');
});

test('durations: seconds with two decimals, milliseconds below 0.1 s (a short step never reads "0.00 s")', () => {
  assert.equal(formatSeconds(0.16187), `0.16${UNIT_SPACE}s`);
  assert.equal(formatSeconds(5.14), `5.14${UNIT_SPACE}s`);
  assert.equal(formatSeconds(0.1), `0.10${UNIT_SPACE}s`);
  assert.equal(formatSeconds(0.0185237), `18.52${UNIT_SPACE}ms`);
  assert.equal(formatSeconds(NaN), '—');
});
