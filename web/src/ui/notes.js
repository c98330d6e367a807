// "Chapter says / Physics says / Why" notes: each a disclosure whose summary is the chapter's claim and
// whose body is the physics and why (details on demand: closed, they do not add to the words on
// screen). The physics line is produced from engine values by the act; this module only lays words out.
import { h, replaceChildren } from './dom.js';

export class NotesPanel {
  constructor(container, { heading = 'Chapter says / Physics says / Why' } = {}) {
    this.list = h('div', { class: 'notes__list' });
    this.el = h('section', { class: 'notes', 'aria-labelledby': 'notes-heading' },
      h('h3', { id: 'notes-heading', text: heading }),
      this.list);
    container.append(this.el);
  }

  // notes: [{ id, chapter, physics, why, held }] with physics already as text. A note whose physics
  // would answer a question still ahead carries `held` (why it waits) and shows only its chapter line.
  update(notes) {
    // An open note stays open when the notes are redrawn (units, replay, the reflection answered).
    const open = new Set([...this.list.querySelectorAll('.note[open]')].map((el) => el.dataset.note));
    replaceChildren(this.list, notes.map((n) => h('details', { class: 'note', 'data-note': n.id, 'data-held': n.held ? 'true' : null, open: open.has(n.id) },
      // The heading says these are the chapter's claims; each summary is the claim alone.
      h('summary', { class: 'note__claim', text: n.chapter }),
      h('dl', {},
        n.held ? [h('dt', { text: 'Physics says' }), h('dd', { class: 'note__held', text: n.held })]
          : [h('dt', { text: 'Physics says' }), h('dd', { class: 'note__physics', text: n.physics }),
            h('dt', { text: 'Why' }), h('dd', { text: n.why })]))));
  }
}
