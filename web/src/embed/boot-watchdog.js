// A classic script, loaded before the lab's module by index.html and embed.html (vite.config.js adds
// it, minified: it is part of the first load). Module scripts are always fetched with CORS; a classic
// one is not, so this one still runs where the module cannot load: e.g. a frame sandboxed without
// allow-same-origin (an opaque origin) on a host that does not send Access-Control-Allow-Origin. It
// then replaces "Loading the engine…" with an alert saying what the host must send, instead of leaving
// it there for ever: at once when a script fails to load, else after 20 s. Once the module runs (it
// sets data-started on <html>) this stays quiet; a failure after that (the engine) is the module's to
// report (embed/boot.js).
(function () {
  var d = document;
  function show() {
    var box = d.getElementById('boot');
    if (d.documentElement.dataset.started || !box) return;
    d.documentElement.dataset.started = 'failed';
    box.setAttribute('role', 'alert');
    box.className += ' boot--failed';
    box.firstElementChild.removeAttribute('role');
    box.firstElementChild.textContent = 'The lab’s files could not be loaded. Reload the page; if it still fails, tell your instructor.'
      + (origin === 'null' ? ' In a sandboxed frame without allow-same-origin, the server hosting the lab must send the header “Access-Control-Allow-Origin: *” with its files.' : '');
  }
  addEventListener('error', function (e) { if (e.target.tagName === 'SCRIPT') show(); }, true);
  setTimeout(show, 20000);
})();
