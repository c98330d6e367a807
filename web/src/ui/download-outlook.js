// Whether a file the lab downloads can reach the student, and saving one (saveFile). A frame sandboxed
// without allow-downloads silently drops it (Chromium gives the page no sign), and a frame cannot read
// its own sandbox flags: only an embedding page on the lab's origin lets it see its <iframe>
// (frameElement). So the answer is 'yes' (a page of its own, or every frame above it readable and
// allowed), 'no' (a readable frame's sandbox leaves out allow-downloads) or 'unknown' (a frame above it
// cannot be read, or the page has no origin of its own, which means a sandbox). The ledger panel offers
// the text to copy unless 'yes'.

// frames: the <iframe>s above the page, innermost first, as { sandboxed, tokens } (the readable ones);
// reachedTop: every frame up to the top window was readable; opaque: the page has no origin of its own.
export function downloadOutlook({ frames = [], reachedTop = true, opaque = false }) {
  if (frames.some((f) => f.sandboxed && !f.tokens.includes('allow-downloads'))) return 'no';
  return reachedTop && !opaque ? 'yes' : 'unknown';
}

// What the window lets the page see of the frames above it (the DOM side of downloadOutlook).
export function frameChain(win) {
  const frames = [];
  let w = win;
  try {
    while (w !== w.top) {
      const el = w.frameElement; // null (or a throw) when the embedding page is on another origin
      if (!el) return { frames, reachedTop: false, opaque: opaqueOrigin(win) };
      frames.push({ sandboxed: el.hasAttribute('sandbox'), tokens: [...el.sandbox] });
      w = w.parent;
    }
  } catch {
    return { frames, reachedTop: false, opaque: opaqueOrigin(win) };
  }
  return { frames, reachedTop: true, opaque: opaqueOrigin(win) };
}

// No origin of its own: sandboxed without allow-same-origin. (Chromium gives file:// pages the origin
// 'null' too, but they may download.)
const opaqueOrigin = (win) => win.origin === 'null' && win.location.protocol !== 'file:';

// How to copy a selected box's text, in the words both download fallbacks use.
export const COPY_HOW = 'press Ctrl+C (⌘C on a Mac) to copy it';

// Saves text as a file through a temporary link (the page's own download; the URL is freed later,
// since a browser may still be reading it when click() returns).
export function saveFile(doc, name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
