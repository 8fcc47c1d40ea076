// Formulas arrive typeset: the build puts KaTeX's HTML into every `.arithmatex` it knows
// (hooks/guide/formulas.py). Any formula still holding raw LaTeX is typeset here, with the
// KaTeX the site serves itself, which is downloaded only when such a formula exists.
(function () {
  var script = document.currentScript;
  var katexUrl = new URL("../katex/katex.min.js", script ? script.src : location.href).href;
  var loading = null;

  function loadKatex() {
    if (window.katex) return Promise.resolve();
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var tag = document.createElement("script");
        tag.src = katexUrl;
        tag.onload = resolve;
        tag.onerror = reject;
        document.head.appendChild(tag);
      });
    }
    return loading;
  }

  function pending(root) {
    return Array.prototype.filter.call(root.querySelectorAll(".arithmatex"), function (el) {
      return !el.querySelector(".katex");
    });
  }

  function typeset(root) {
    var raw = pending(root);
    if (!raw.length) return;
    loadKatex().then(function () {
      raw.forEach(function (el) {
        if (el.querySelector(".katex")) return;
        var tex = el.textContent.trim().replace(/^\\[\[(]/, "").replace(/\\[\])]$/, "");
        katex.render(tex, el, { displayMode: el.tagName === "DIV", throwOnError: false, strict: "ignore" });
      });
    });
  }

  window.guideTypeset = typeset;  // for content inserted later (the drill's answers)
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { typeset(document); });
  } else {
    typeset(document);
  }
})();
