// A classic script, loaded before the lab's module by index.html and embed.html (vite.config.js adds
// it). Module scripts are always fetched with CORS; a classic one is not, so this one still runs where
// the module cannot load: e.g. a frame sandboxed without allow-same-origin (an opaque origin) on a host
// that does not send Access-Control-Allow-Origin. It then replaces "Loading the engine…" with what
// failed and what the host must send, instead of leaving it there for ever. Once the module runs (it
// sets data-started on <html>) this stays quiet; later failures are the module's (embed/boot.js).
// Lines starting with // are left out of the built file.
(function () {
  var html = document.documentElement;
  function show() {
    var box = document.getElementById('boot');
    var status = document.getElementById('boot-status');
    if (html.dataset.started || !box || !status) return;
    html.dataset.started = 'failed';
    box.setAttribute('role', 'alert');
    box.className += ' boot--failed';
    status.removeAttribute('role');
    status.textContent = 'The lab’s files could not be loaded, so the lab cannot run.' + (window.origin === 'null' && location.protocol !== 'file:'
      ? ' This lab is in a sandboxed frame without allow-same-origin, so the browser fetches its files as another site’s: the server hosting the lab must send the header “Access-Control-Allow-Origin: *” with them, or the course page must add allow-same-origin to the frame. Tell your instructor.'
      : ' Try reloading the page; if it still fails, tell your instructor.');
  }
  addEventListener('error', function (e) { if (e.target && e.target.tagName === 'SCRIPT') show(); }, true);
  setTimeout(show, 20000);
})();
