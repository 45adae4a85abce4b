// headroom-script-check.js: a classic (non-module) script the pages load
// before their module scripts, to say why Headroom cannot start when those
// module scripts themselves cannot be loaded.
//
// Module scripts are fetched with CORS. In a sandboxed iframe (origin
// "null") every fetch is cross-origin, so a site that does not send
// Access-Control-Allow-Origin: * gets a blank frame: headroom-loader.mjs never
// runs to show its error box. A classic script is fetched without CORS, so
// this one still runs: it watches for a module script that fails to load and
// shows the same error box (#error, styled by headroom.css) with the cause.
// Does not: load, check or start anything else; define globals.
(function () {
  'use strict';
  var shown = false;
  function show(message) {
    if (shown || document.getElementById('error')) return;  // the loader runs: it reports its own errors
    shown = true;
    var box = document.createElement('div');
    box.id = 'error';
    box.setAttribute('role', 'alert');
    box.className = 'shown';
    var h = document.createElement('h1');
    h.textContent = 'Headroom could not start';
    var p = document.createElement('p');
    p.id = 'error-text';
    p.textContent = message;
    box.appendChild(h);
    box.appendChild(p);
    // The canvas and the stage around it (with its first picture) give way to the box.
    ['canvas', 'stage'].forEach(function (id) {
      var e = document.getElementById(id);
      if (e) e.classList.add('hidden');
    });
    document.body.appendChild(box);
  }
  document.addEventListener('error', function (e) {
    var s = e.target;
    if (!s || s.tagName !== 'SCRIPT' || s.type !== 'module') return;
    var where = '';
    try { where = new URL(s.src).origin; } catch (err) { where = s.src; }
    var file = s.src.split('/').pop();
    if (self.origin === 'null') {
      show(file + ' could not be loaded from ' + where + '. This frame is sandboxed, so its origin is "null" ' +
           'and every fetch is cross-origin: the site serving Headroom must send the header ' +
           'Access-Control-Allow-Origin: * (or the iframe must drop its sandbox attribute).');
    } else {
      show(file + ' could not be loaded from ' + where + ' (a network or server error, or the server does not ' +
           'serve .js files as JavaScript).');
    }
  }, true);
})();
