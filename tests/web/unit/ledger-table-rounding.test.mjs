// The ledger table's rows add up to the total shown (issue 23, item 2: no "the rows as shown add to
// 15.96 GB" beside "Total 15.94 GB"): where rounding each row alone would miss the rounded total, the
// rows are rounded together, each its exact value rounded down or up, and they then add up exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { termHundredths } from '../../../web/src/charts/ledger-table.js';
import { shownHundredths } from '../../../web/src/format/format.js';

test('rows whose plain rounding adds up are left alone', () => {
  assert.equal(termHundredths([6.23e9, 6.23e9], 12.46e9), null);
});

test('rows that would miss the total are rounded together to add up, none more than a hundredth from its own rounding', () => {
  // Four rows of 6.2304 GB: each shows 6.23, they add to 24.92, and the total 24.9216 shows 24.92; fine.
  // Three rows of 3.335 GB: each shows 3.34 (10.02), the total 10.005 shows 10.01: they must be rounded together.
  const rows = [3.335e9, 3.335e9, 3.335e9];
  const total = rows.reduce((a, b) => a + b, 0);
  assert.equal(rows.reduce((a, b) => a + shownHundredths(b), 0), 1002);
  const h = termHundredths(rows, total);
  assert.equal(h.reduce((a, b) => a + b, 0), shownHundredths(total));
  for (const [i, x] of h.entries()) assert.ok(Math.abs(x - rows[i] / 1e7) < 1, `${x} vs ${rows[i] / 1e7}`);
  // The same in GiB.
  const g = termHundredths(rows, total, 'gib');
  if (g) assert.equal(g.reduce((a, b) => a + b, 0), shownHundredths(total, 'gib'));
});

test('an exhaustive sweep of small sums always adds up to the rounded total', () => {
  for (let a = 0; a < 200; a += 7) {
    for (let b = 0; b < 200; b += 11) {
      const rows = [a * 1e6 + 4.9e6, b * 1e6 + 5.1e6, 1e9 + a * 3.3e6];
      const total = rows.reduce((x, y) => x + y, 0);
      const h = termHundredths(rows, total) || rows.map((r) => shownHundredths(r));
      assert.equal(h.reduce((x, y) => x + y, 0), shownHundredths(total), JSON.stringify(rows));
    }
  }
});
