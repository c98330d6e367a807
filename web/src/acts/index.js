// The act registry: the navigation and the app read this list. Adding an act = one file in acts/
// exporting { id, title, shortTitle, mount } plus one entry here; `mount: null` shows it as coming soon.
// `nav` is the navigation's words; `status(state)` (optional) adds a progress note; `progress: false`
// entries (panels beside the acts) do not become the student's current act; `ownSettings` ones read
// settings of their own from a link (the workbench). Panels that are not on
// the first screen load their code only when opened (lazyMount).
import * as act1 from './act1.js';

// mount() for a module loaded on demand: shows a loading line, then mounts the module's act into it.
function lazyMount(load, what) {
  return (ctx) => {
    let mounted = null;
    let destroyed = false;
    const note = document.createElement('p');
    note.className = 'boot__status';
    note.setAttribute('role', 'status');
    // Focus after a switch waits here (app.js), and moves on to the act's heading once it is mounted.
    note.setAttribute('tabindex', '-1');
    note.dataset.loading = '';
    note.textContent = `Loading ${what}…`;
    ctx.root.append(note);
    load().then((mod) => {
      if (destroyed) return;
      const focused = note.getRootNode().activeElement === note;
      note.remove();
      mounted = mod.mount(ctx);
      if (focused) mounted.focus();
    }, (err) => {
      note.setAttribute('role', 'alert');
      // Usually a file that did not arrive (network off on a hosted copy): say that first, in words.
      note.textContent = `Could not load ${what}: part of the lab did not arrive from the site (the network may be off). `
        + `Try reloading the page. (Details: ${err && err.message ? err.message : err})`;
    });
    return {
      focus: () => (mounted ? mounted.focus() : note.focus()),
      destroy: () => { destroyed = true; if (mounted) mounted.destroy(); else note.remove(); },
    };
  };
}

export const ACTS = [
  { id: 1, nav: `Act 1: ${act1.shortTitle}`, shortTitle: act1.shortTitle, mount: act1.mount,
    status: (state) => (state.acts.act1.completed ? ' (complete)' : state.acts.act1.prediction ? ' (in progress)' : '') },
  { id: 2, nav: 'Act 2: The MFU gap', shortTitle: 'The MFU gap',
    mount: lazyMount(() => import('./act2.js'), 'Act 2'),
    status: (state) => (state.acts.act2.completed ? ' (complete)' : state.acts.act2.prediction ? ' (in progress)' : '') },
  { id: 3, nav: 'Act 3: Past one GPU', shortTitle: 'Past one GPU', mount: lazyMount(() => import('./act3.js'), 'Act 3'),
    status: (state) => (state.acts.act3 ? (state.acts.act3.completed ? ' (complete)' : state.acts.act3.prediction ? ' (in progress)' : '') : '') },
  { id: 'measure', nav: 'Measure it', shortTitle: 'Measure it', progress: false,
    mount: lazyMount(() => import('./measure.js'), 'the “Measure it” panel') },
  { id: 'workbench', nav: 'Workbench', shortTitle: 'Workbench', progress: false, ownSettings: true,
    mount: lazyMount(() => import('./workbench.js'), 'the workbench') },
  { id: 'ledger', nav: 'Design ledger', shortTitle: 'Design ledger', progress: false, mount: lazyMount(() => import('./ledger-panel.js'), 'the design ledger') },
];

export const availableActs = () => ACTS.filter((a) => a.mount).map((a) => a.id);
