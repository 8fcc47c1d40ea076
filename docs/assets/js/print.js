// "打印 / 保存 PDF" buttons, and collapsed blocks opened for printing and closed again after.
// Paper uses the site's own print fonts (print-fonts.css), which nothing downloads on screen: the
// button loads them first, so the dialog lays out the same pages as the PDFs the build printed.
(function () {
  function loadPrintFonts() {
    var faces = [];
    if (document.fonts) {
      document.fonts.forEach(function (face) {
        if (face.family.replace(/"/g, "").indexOf("Guide Print") === 0) {
          faces.push(face.load().catch(function () { return null; }));
        }
      });
    }
    return Promise.all(faces);
  }

  function setup() {
    document.querySelectorAll(".guide-print").forEach(function (button) {
      button.addEventListener("click", function () {
        loadPrintFonts().then(function () { window.print(); });
      });
    });
  }

  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (d) {
      d.open = true;
      return true;
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
