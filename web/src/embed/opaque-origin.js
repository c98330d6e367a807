// A page without an origin of its own: a frame sandboxed without allow-same-origin. Its fetches of the
// lab's files are cross-origin, and it may be kept from downloading. (Chromium gives file:// pages the
// origin 'null' too, but they fetch nothing and may download.)
export const opaqueOrigin = (win) => win.origin === 'null' && win.location.protocol !== 'file:';
