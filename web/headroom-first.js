// headroom-first.js: a classic script in the pages' <head>, run before the
// body is parsed, that picks what the stage shows until the canvas's first
// frame: the default state drawn at build time in the page's language and
// theme, or a neutral placeholder.
//
// Does: read the URL hash as the wasm will apply it: the build-time pictures
// show the default state (the lesson sentence, "said", one head) in each
// language of <html data-langs> (written by the build) and either theme, so
// a hash whose only keys are lang= (one of those) and theme= (light or
// dark), each once, gets the picture; any other key, value or repetition
// asks for a state the pictures do not show, and gets the placeholder. Sets
// <html lang>, data-theme and data-first ("picture" or "placeholder"):
// headroom.css shows the one picture, or the placeholder, and the page's
// words in that language from them; the <title> in the language (its
// data-<code> attribute, written by the build), and the sentence field's
// lesson sentence in it (the same, once the body is parsed).
// Does not: draw or remove anything (the pictures are in the page;
// headroom-loader.mjs removes them after the canvas's first frame), or run
// any other code: a strict CSP (script-src 'self') allows it as it is.
(function () {
  'use strict';
  var root = document.documentElement;
  var langs = (root.getAttribute('data-langs') || 'en').split(' ');
  var lang = 'en', theme = 'light', plain = true, seen = {};
  var hash = location.hash.replace(/^#/, '');
  hash.split('&').forEach(function (field) {
    if (!field) return;
    var eq = field.indexOf('=');
    var key = eq < 0 ? field : field.slice(0, eq);
    var value = eq < 0 ? '' : field.slice(eq + 1);
    if (seen[key]) plain = false;  // a key given twice is refused: not the default
    seen[key] = true;
    if (key === 'lang' && langs.indexOf(value) >= 0) lang = value;
    else if (key === 'theme' && (value === 'light' || value === 'dark')) theme = value;
    else plain = false;
  });
  root.lang = lang;
  root.setAttribute('data-theme', theme);
  root.setAttribute('data-first', plain ? 'picture' : 'placeholder');
  var title = document.querySelector('title[data-tr]');
  if (title && title.getAttribute('data-' + lang)) document.title = title.getAttribute('data-' + lang);
  // The sentence field, once parsed: the language's lesson sentence (the
  // picture's), unless the reader has typed already.
  document.addEventListener('DOMContentLoaded', function () {
    var field = document.getElementById('sentence');
    var lesson = field && field.getAttribute('data-' + lang);
    if (lesson && field.value === field.defaultValue) field.value = lesson;
  });
})();
