// "Chapter says / Physics says / Why" notes: each a small card with a description list. The physics
// line is produced from engine values by the act; this module only lays the words out.
import { h, replaceChildren } from './dom.js';

export class NotesPanel {
  constructor(container, { heading = 'Chapter says / Physics says / Why' } = {}) {
    this.list = h('div', { class: 'notes__list' });
    this.el = h('section', { class: 'notes', 'aria-labelledby': 'notes-heading' },
      h('h3', { id: 'notes-heading', text: heading }),
      h('p', { class: 'notes__lead', text: 'Where the chapter (or a popular shortcut) and the physics disagree, both are shown; the physics numbers are computed by the engine for the case described.' }),
      this.list);
    container.append(this.el);
  }

  // notes: [{ id, chapter, physics, why, held }] with physics already as text. A note whose physics
  // would answer a question still ahead carries `held` (why it waits) and shows only its chapter line.
  update(notes) {
    replaceChildren(this.list, notes.map((n) => h('article', { class: 'note', 'data-note': n.id, 'data-held': n.held ? 'true' : null },
      h('dl', {},
        h('dt', { text: 'Chapter says' }), h('dd', { text: n.chapter }),
        n.held ? [h('dt', { text: 'Physics says' }), h('dd', { class: 'note__held', text: n.held })]
          : [h('dt', { text: 'Physics says' }), h('dd', { class: 'note__physics', text: n.physics }),
            h('dt', { text: 'Why' }), h('dd', { text: n.why })]))));
  }
}
