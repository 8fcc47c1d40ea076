// Typeset every formula that pymdownx.arithmatex marked, with KaTeX served by the site itself.
// Runs on every page view, including instant navigation (Material's document$).
(function () {
  function typeset(root) {
    root.querySelectorAll(".arithmatex").forEach(function (el) {
      if (el.dataset.typeset) return;
      var tex = el.textContent.trim();
      var display = el.tagName === "DIV";
      tex = tex.replace(/^\\[\[(]/, "").replace(/\\[\])]$/, "");
      katex.render(tex, el, { displayMode: display, throwOnError: false, strict: "ignore" });
      el.dataset.typeset = "1";
    });
  }
  window.guideTypeset = typeset;  // for content inserted later (the drill's answers)
  if (window.document$) {
    window.document$.subscribe(function () { typeset(document); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { typeset(document); });
  }
})();
