// The site's math, set by the KaTeX that relations/demo bundles (copied to _static/katex by docs/conf.py),
// so the pages need no network. Sphinx writes inline math as <span class="math">\(...\)</span> and display
// math as <div class="math">\[...\]</div>; this file is Sphinx's mathjax_path, loaded on pages with math.
(function () {
  "use strict";
  var here = document.currentScript ? document.currentScript.src.replace(/[^/]*$/, "") : "_static/";
  function render() {
    document.querySelectorAll(".math").forEach(function (el) {
      var display = el.tagName === "DIV";
      var tex = el.textContent.trim().replace(/^\\[(\[]/, "").replace(/\\[)\]]$/, "");
      try {
        katex.render(tex, el, {displayMode: display, throwOnError: false});
      } catch (e) { /* leave the source visible */ }
    });
  }
  var css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = here + "katex/katex.min.css";
  document.head.appendChild(css);
  var js = document.createElement("script");
  js.src = here + "katex/katex.min.js";
  js.onload = function () {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", render);
    else render();
  };
  document.head.appendChild(js);
})();
