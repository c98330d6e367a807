// The act registry: the navigation and the app read this list. Adding an act = one file in acts/
// exporting { id, title, shortTitle, mount } plus one entry here; `mount: null` shows it as coming soon.
import * as act1 from './act1.js';

export const ACTS = [
  { id: 1, shortTitle: act1.shortTitle, mount: act1.mount },
  { id: 2, shortTitle: 'The MFU gap', mount: null },
];

export const availableActs = () => ACTS.filter((a) => a.mount).map((a) => a.id);
