// "打印 / 保存 PDF" buttons, and collapsed blocks opened for printing and closed again after.
(function () {
  function setup() {
    document.querySelectorAll(".guide-print").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
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
