// Act 1 helpers shared by the end-to-end tests: lock the prediction, and geometric probes of the
// ledger chart's labels (each returns what is wrong, so an empty list is a pass).
import { settle } from './helpers.mjs';

export async function lockPrediction(page, choice = 'b') {
  await page.locator(`.prediction input[value="${choice}"]`).check();
  await page.locator('.prediction button[type=submit]').click();
  await page.waitForSelector('.act-unlocked:not([hidden])');
  await settle(page);
}

// No text in the ledger chart is crossed by the budget line, and every text lies inside the SVG.
export async function chartLabelsClear(page) {
  return page.locator('.ledger-chart').evaluate((svg) => {
    const line = svg.querySelector('.budget-line');
    const yb = Number(line.getAttribute('y1'));
    const vb = svg.viewBox.baseVal;
    const bad = [];
    for (const t of svg.querySelectorAll('.columns text')) {
      if (!t.textContent) continue;
      const b = t.getBBox();
      if (yb > b.y + 1 && yb < b.y + b.height - 1) bad.push(`crossed: ${t.textContent}`);
      if (b.x < -1 || b.x + b.width > vb.width + 1) bad.push(`outside: ${t.textContent}`);
    }
    const lb = svg.querySelector('.budget-label').getBBox();
    if (lb.x + lb.width > vb.width + 1) bad.push('budget label outside');
    // The selected column’s outline runs above its top: no text above the column comes within 2 px of it.
    const sel = svg.querySelector('g.col--selected');
    const outline = sel && sel.querySelector('rect.outline');
    if (outline && outline.getAttribute('display') !== 'none') {
      const edge = Number(outline.getAttribute('y')) - parseFloat(getComputedStyle(outline).strokeWidth) / 2; // the stroke's outer edge
      for (const t of sel.querySelectorAll('text.col-total, text.col-over')) {
        const b = t.getBBox(); // the font's full height, descenders included
        if (t.textContent && b.y < edge + 2 && b.y + b.height > edge - 2) bad.push(`touches the selected column's outline: ${t.textContent}`);
      }
    }
    return bad;
  });
}

// Every pair of texts in the ledger chart whose boxes overlap (tolerance 0.75 px).
export async function chartLabelsOverlap(page) {
  return page.locator('.ledger-chart').evaluate((svg) => {
    const boxes = [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() && t.getClientRects().length && getComputedStyle(t).display !== 'none' && !t.closest('[display="none"]'))
      .map((t) => ({ text: t.textContent, b: t.getBoundingClientRect() }))
      .filter((x) => x.b.width > 0);
    const bad = [];
    const e = 0.75;
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i].b;
        const c = boxes[j].b;
        if (a.left + e < c.right && c.left + e < a.right && a.top + e < c.bottom && c.top + e < a.bottom) bad.push(`${boxes[i].text} × ${boxes[j].text}`);
      }
    }
    return bad;
  });
}

// The chart's key lines (tspans), as one sentence.
export const peakKeyText = (page) => page.locator('.ledger-chart .peak-key').evaluate((t) => [...t.querySelectorAll('tspan')].map((x) => x.textContent).join(' '));

// Key lines that run past the chart's right edge.
export const keyOutside = (page) => page.locator('.ledger-chart').evaluate((svg) => {
  const w = svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('.peak-key tspan')].filter((t) => t.getBBox().x + t.getBBox().width > w + 1).map((t) => t.textContent);
});

// Every text in the ledger chart that the budget line or a column's peak line runs through.
export async function linesThroughLabels(page) {
  return page.locator('.ledger-chart').evaluate((svg) => {
    const lines = [...svg.querySelectorAll('.budget-line, .peak-mark')].filter((l) => l.getAttribute('display') !== 'none');
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && !t.closest('[display="none"]') && t.getBBox().width > 0);
    const bad = [];
    for (const l of lines) {
      const y = Number(l.getAttribute('y1'));
      const [x1, x2] = [Number(l.getAttribute('x1')), Number(l.getAttribute('x2'))];
      for (const t of texts) {
        const b = t.getBBox();
        if (y > b.y + 1 && y < b.y + b.height - 1 && b.x < x2 && b.x + b.width > x1) bad.push(`${l.getAttribute('class')} through “${t.textContent}”`);
      }
    }
    return bad;
  });
}

// Segment-label names that differ only by case ("M 6.00" for the master copy beside Adam's "m 6.00"):
// a reader takes them for the same part. Returns each such pair once.
export const caseOnlyTwins = (page) => page.locator('.ledger-chart').evaluate((svg) => {
  const names = [...new Set([...svg.querySelectorAll('text.seg-label')].map((t) => t.textContent.replace(/\s*[\d,.<]+$/, '')).filter(Boolean))];
  return names.flatMap((a, i) => names.slice(i + 1).filter((b) => a !== b && a.toLowerCase() === b.toLowerCase()).map((b) => `${a} / ${b}`));
});

// The act's text as a student reads it with every disclosure open (the sums behind a "Why?" count
// too): each closed <details> is opened while reading, then closed again.
export const textWithDisclosures = (page, selector = '#act-root') => page.locator(selector).evaluate((el) => {
  const closed = [...el.querySelectorAll('details:not([open])')];
  for (const d of closed) d.open = true;
  const text = el.innerText;
  for (const d of closed) d.open = false;
  return text;
});
