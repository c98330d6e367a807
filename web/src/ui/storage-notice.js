// The notice shown when progress is not saved, loaded only then (app.js): what is kept and what is lost,
// and why: the browser blocks storage here, the course page chose memory (storage="memory"), or
// saving failed after start-up (status.failed: 'full' or 'refused', from store.js).
import { h } from './dom.js';

export function storageNotice({ failed }, memoryChosen, ledgerHref) {
  return h('p', { class: 'notice notice--warn', 'data-notice': 'storage', 'data-storage': failed ? 'failed' : memoryChosen ? 'memory' : 'blocked' },
    h('strong', { text: failed ? 'Your progress can no longer be saved: ' : 'Your progress is kept in this tab only: ' }),
    failed ? `the browser${failed === 'full' ? '’s storage is full' : ' stopped letting this page save'}. From now on it is kept in this tab only; reloading or closing the tab goes back to what was last saved`
      : `${memoryChosen ? 'this course page keeps the lab in memory' : 'the browser does not let this page save it here'}. Reloading or closing the tab loses it`,
    ', so ', h('a', { href: ledgerHref, text: 'export your design ledger' }), ' before you leave.');
}
