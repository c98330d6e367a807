// A short "Why?" disclosure: detail a student may open (reconciliations with the chapter, rounding,
// conventions, caveats), closed by default so that it does not count among the words on screen.
// It only lays words out; the numbers inside come from the engine through the act.
import { h } from './dom.js';

export function whyDetails(summary, ...children) {
  return h('details', { class: 'why' }, h('summary', { text: summary }), ...children);
}
