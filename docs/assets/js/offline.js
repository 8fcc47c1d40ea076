// The whole guide offline. Pressing a [data-offline-save] control registers the service worker
// that Workbox generated for this build (sw.js, see hooks/guide/offline.py), which downloads every
// page, the search index and the fonts; the control shows its progress and the size. Nothing is
// downloaded before that. After a later build the browser fetches the new sw.js, which downloads
// only what changed; the reader is told when the update is ready and can switch to it.
// The worker's code is Workbox's; this file only registers it and reports on it.
(function () {
  "use strict";

  var script = document.currentScript;
  var root = new URL("../../", script ? script.src : location.href);
  var summary = null;

  function mb(bytes) { return (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0) + " MB"; }

  // offline.json says how much there is to save. It is not in the offline copy (it describes the
  // copy), so the last one read is kept here for the size shown offline.
  var SUMMARY_KEY = "guide-offline-summary";

  function remembered() {
    try { return JSON.parse(localStorage.getItem(SUMMARY_KEY) || "null"); } catch (error) { return null; }
  }

  function info() {
    if (!summary) {
      summary = fetch(new URL("offline.json", root).href, { cache: "no-cache" })
        .then(function (r) { return r.ok ? r.json() : null; }).catch(function () { return null; })
        .then(function (data) {
          if (data) { try { localStorage.setItem(SUMMARY_KEY, JSON.stringify(data)); } catch (error) { /* private mode */ } }
          return data || remembered();
        });
    }
    return summary;
  }

  function loadWorkbox() {
    return new Promise(function (resolve, reject) {
      if (window.workbox) return resolve(window.workbox);
      var tag = document.createElement("script");
      tag.src = new URL("assets/vendor/workbox-window.umd.js", root).href;
      tag.onload = function () { resolve(window.workbox); };
      tag.onerror = function () { reject(new Error("workbox-window 加载失败")); };
      document.head.appendChild(tag);
    });
  }

  function controls() { return Array.prototype.slice.call(document.querySelectorAll("[data-offline-save]")); }

  function show(text, fraction) {
    controls().forEach(function (control) {
      var label = control.querySelector(".guide-offline__label");
      var bar = (control.closest(".guide-offline") || control.parentNode).querySelector("progress.guide-offline__progress");
      if (label && label.textContent !== text) label.textContent = text;
      if (bar) {
        bar.hidden = fraction === null;
        if (fraction !== null) bar.value = fraction;
      }
    });
  }

  function cached() {
    // How many of this build's files are in the precache: the worker's own cache, counted.
    return caches.keys().then(function (names) {
      var name = names.filter(function (n) { return /rl-interview-guide-precache/.test(n); })[0];
      return name ? caches.open(name).then(function (c) { return c.keys(); }).then(function (k) { return k.length; }) : 0;
    });
  }

  function watch(total, size) {
    var timer = setInterval(function () {
      cached().then(function (n) {
        var fraction = total ? Math.min(1, n / total) : 0;
        show("正在下载：" + Math.round(fraction * 100) + "%（共 " + mb(size) + "）", fraction);
      });
    }, 500);
    return timer;
  }

  function banner(wb) {
    if (document.querySelector(".guide-update")) return;
    var bar = document.createElement("div");
    bar.className = "guide-update";
    bar.setAttribute("role", "status");
    bar.innerHTML = '<span>指南有新版本，离线副本已更新好。</span><button type="button" class="md-button md-button--primary">刷新使用新版本</button>';
    bar.querySelector("button").addEventListener("click", function () {
      wb.addEventListener("controlling", function () { location.reload(); });
      wb.messageSkipWaiting();
    });
    document.body.appendChild(bar);
  }

  function register(saving) {
    return Promise.all([loadWorkbox(), info()]).then(function (got) {
      var wb = new got[0].Workbox(new URL("sw.js", root).href, { scope: root.pathname });
      var total = got[1] ? got[1].count : 0;
      var size = got[1] ? got[1].size : 0;
      var timer = saving ? watch(total, size) : null;
      wb.addEventListener("waiting", function () { banner(wb); });
      return wb.register().then(function (registration) {
        return navigator.serviceWorker.ready.then(function () {
          if (timer) clearInterval(timer);
          document.documentElement.dataset.offline = "saved";
          show("已离线保存" + (size ? "（" + mb(size) + "）" : "") + "：断网也能看全部页面、搜索和速查表", null);
          return registration;
        });
      });
    }).catch(function (error) {
      show("离线保存失败：" + error.message, null);
    });
  }

  function setup() {
    if (!("serviceWorker" in navigator) || !window.caches) {
      controls().forEach(function (c) { c.disabled = true; });
      show("这个浏览器不支持离线保存", null);
      return;
    }
    if (controls().length) {
      info().then(function (data) { if (data && !document.documentElement.dataset.offline) show("离线保存整个指南（约 " + mb(data.size) + "）", null); });
    }
    controls().forEach(function (control) {
      control.addEventListener("click", function () { control.disabled = true; register(true).then(function () { control.disabled = false; }); });
    });
    // A reader who saved the guide keeps getting its updates: register again on every page.
    navigator.serviceWorker.getRegistration(root.pathname).then(function (registration) {
      if (registration) register(false);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
