// What the guide uses of Material's bundle.js, which it does not load (overrides/main.html):
// the palette toggle, copy buttons on code blocks (the buttons are in the HTML, written by the
// build), the table of contents following the reader, the page title and shadow in the header,
// and the back-to-top button.  Nothing here reads layout while the page starts: positions come
// from observers and scroll frames, after the browser has laid the page out anyway.
(function () {
  "use strict";

  var HEADER = 48;  // px: Material's fixed header (2.4rem), which covers the top of the page

  // ---- palette: the toggle shows the next option; palette.html applies it ------------------
  function palette() {
    var form = document.querySelector("form[data-md-component=palette]");
    if (!form || !window.__guide_palette) return;
    form.addEventListener("change", function (event) {
      var inputs = Array.prototype.slice.call(form.querySelectorAll("input[name=__palette]"));
      window.__guide_palette(inputs.indexOf(event.target), true);
    });
  }

  // ---- copy buttons -------------------------------------------------------------------------
  function notify(message) {
    var dialog = document.querySelector("[data-md-component=dialog]");
    if (!dialog) return;
    dialog.querySelector(".md-dialog__inner").textContent = message;
    dialog.classList.add("md-dialog--active");
    clearTimeout(notify.timer);
    notify.timer = setTimeout(function () { dialog.classList.remove("md-dialog--active"); }, 2000);
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // file:// and plain-http hosts have no Clipboard API: copy through a selected textarea.
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.cssText = "position:fixed;top:0;left:0;opacity:0";
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand("copy");
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function copyButtons() {
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("[data-md-type=copy]");
      if (!button) return;
      var code = document.querySelector(button.getAttribute("data-clipboard-target"));
      if (!code) return;
      copyText(code.innerText.replace(/\n$/, "")).then(
        function () { notify("已复制到剪贴板"); },
        function () { notify("复制失败：请手动选择代码复制"); }
      );
    });
  }

  // ---- header title: the page's own title once its h1 has scrolled under the header --------
  function headerTitle() {
    var title = document.querySelector("[data-md-component=header-title]");
    var h1 = document.querySelector(".md-content h1");
    if (!title || !h1 || !("IntersectionObserver" in window)) return;
    new IntersectionObserver(function (entries) {
      var entry = entries[entries.length - 1];
      title.classList.toggle("md-header__title--active", !entry.isIntersecting && entry.boundingClientRect.top < 0);
    }, { rootMargin: -HEADER + "px 0px 0px 0px" }).observe(h1);
  }

  // ---- on scroll: the header's shadow, and back-to-top while the reader scrolls up ---------
  function scrolling() {
    var bar = document.querySelector("[data-md-component=header]");
    var tabs = document.querySelector(".md-tabs");
    var button = document.querySelector("[data-md-component=top]");
    var last = null;  // not read at start: reading the scroll position lays the page out
    var pending = false;
    function update() {
      pending = false;
      var y = window.scrollY;
      if (last === null) last = y;
      // Read after a frame, when layout is already done: the tabs bar scrolls away under the header.
      if (bar) bar.classList.toggle("md-header--shadow", y > (tabs ? tabs.offsetHeight : 0));
      if (button) {
        var show = y < last && y > window.innerHeight;
        button.hidden = !show;
        button.tabIndex = show ? 0 : -1;
      }
      last = y;
    }
    function schedule() {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    }
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("load", schedule);
    if (button) {
      button.addEventListener("click", function () {
        button.blur();
        window.scrollTo({ top: 0 });
      });
    }
  }

  // ---- table of contents: mark the section being read, keep it in view ---------------------
  function tableOfContents() {
    var links = Array.prototype.slice.call(document.querySelectorAll(".md-sidebar--secondary [data-md-component=toc] a.md-nav__link"));
    var content = document.querySelector(".md-content");
    if (!links.length || !content) return;
    var targets = links.map(function (link) {
      return document.getElementById(decodeURIComponent(link.hash.slice(1)));
    });
    var tops = null;  // the headings' positions in the page, measured after a layout
    var active = -1;
    var pending = false;
    function update() {
      pending = false;
      if (!tops) {
        tops = targets.map(function (target) {
          return target ? target.getBoundingClientRect().top + window.scrollY : Infinity;
        });
      }
      // The section being read is the last whose heading is above the top fifth of the screen.
      var line = window.scrollY + HEADER + window.innerHeight / 5;
      var index = -1;
      tops.forEach(function (top, i) { if (top <= line) index = i; });
      if (index === active) return;
      active = index;
      links.forEach(function (link, i) {
        link.classList.toggle("md-nav__link--passed", i <= index);
        link.classList.toggle("md-nav__link--active", i === index);
      });
      var wrap = links[0].closest(".md-sidebar__scrollwrap");
      if (index >= 0 && wrap && wrap.offsetParent !== null) {
        var box = wrap.getBoundingClientRect();
        var at = links[index].getBoundingClientRect();
        if (at.top < box.top || at.bottom > box.bottom) wrap.scrollTop += at.top - box.top - box.height / 2;
      }
    }
    function schedule() {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    }
    window.addEventListener("scroll", schedule, { passive: true });
    // Called after the first layout and whenever fonts, formulas or the window resize the page.
    new ResizeObserver(function () { tops = null; schedule(); }).observe(content);
  }

  function start() {
    palette();
    copyButtons();
    headerTitle();
    scrolling();
    tableOfContents();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
