// Study mode: the drill at /practice/, and progress marks on the bank and topic pages.
// Progress lives only in this browser (localStorage), as {version, questions: {id: {status, at}}};
// it can be exported to a file and imported again.  No third-party code, works offline.
(function () {
  "use strict";

  var KEY = "guide-progress-v1";
  var script = document.currentScript;
  var root = new URL("../../", script ? script.src : location.href);

  function loadProgress() {
    try {
      var data = JSON.parse(localStorage.getItem(KEY) || "{}");
      return data && data.questions ? data : { version: 1, questions: {} };
    } catch (error) {
      return { version: 1, questions: {} };
    }
  }

  function saveProgress(progress) {
    localStorage.setItem(KEY, JSON.stringify(progress));
  }

  function status(progress, id) {
    var entry = progress.questions[id];
    return entry ? entry.status : "";
  }

  // ---- marks on the bank and topic pages --------------------------------------------------------
  // Elements are written only when their mark changes: a page with nothing practised yet is
  // left exactly as built, with no style work while it loads.
  function showMarks() {
    var progress = loadProgress();
    document.querySelectorAll(".guide-progress[data-questions]").forEach(function (el) {
      var ids = el.dataset.questions.split(/\s+/).filter(Boolean);
      var known = ids.filter(function (id) { return status(progress, id) === "known"; }).length;
      var unknown = ids.filter(function (id) { return status(progress, id) === "unknown"; }).length;
      var text = known || unknown ? "练习进度：会 " + known + " / 不会 " + unknown + " / 共 " + ids.length : "";
      if (el.textContent !== text) el.textContent = text;
    });
    document.querySelectorAll(".guide-mark[data-question]").forEach(function (el) {
      var s = status(progress, el.dataset.question);
      var text = s === "known" ? "✓ 会" : s === "unknown" ? "✗ 不会" : "";
      var name = "guide-mark" + (s ? " guide-mark--" + s : "");
      if (el.textContent !== text) el.textContent = text;
      if (el.className !== name) el.className = name;
    });
  }

  // ---- the drill -------------------------------------------------------------------------------
  function shuffle(items) {
    for (var i = items.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }

  function setupDrill(app) {
    var data = JSON.parse(app.querySelector("#practice-data").textContent);
    var form = app.querySelector("form");
    var card = app.querySelector(".guide-practice__card");
    var count = app.querySelector(".guide-practice__count");
    var question = app.querySelector(".guide-practice__question");
    var reveal = app.querySelector("[data-action=reveal]");
    var answer = app.querySelector(".guide-practice__answer");
    var marks = app.querySelector(".guide-practice__marks");
    var statusLine = app.querySelector(".guide-practice__status");
    var table = app.querySelector(".guide-practice__progress tbody");
    var queue = [];
    var position = 0;
    var tally = { known: 0, unknown: 0 };

    function selected() {
      var topic = form.elements.topic.value;
      var company = form.elements.company.value;
      var difficulty = form.elements.difficulty.value;
      var kind = form.elements.kind ? form.elements.kind.value : "";
      return data.questions.filter(function (q) {
        return (!topic || q.topic === topic) && (!company || q.companies.indexOf(company) >= 0) &&
          (!difficulty || q.difficulty === difficulty) && (!kind || q.kind === kind);
      });
    }

    function renderTable() {
      // The page has a row per topic already (no progress); only the counts change, in place.
      var progress = loadProgress();
      Array.prototype.forEach.call(table.rows, function (row) {
        var ids = data.questions.filter(function (q) { return q.topic === row.dataset.topic; }).map(function (q) { return q.id; });
        var known = ids.filter(function (id) { return status(progress, id) === "known"; }).length;
        var unknown = ids.filter(function (id) { return status(progress, id) === "unknown"; }).length;
        [known, unknown, ids.length - known - unknown].forEach(function (value, i) {
          row.cells[i + 1].textContent = String(value);
        });
      });
    }

    function showQuestion() {
      if (position >= queue.length) {
        card.hidden = true;
        statusLine.textContent = queue.length
          ? "这一轮完成：会 " + tally.known + " 题，不会 " + tally.unknown + " 题。" + (tally.unknown ? "点“重练不会的”再来一遍。" : "")
          : "这个范围里没有题。";
        return;
      }
      var q = queue[position];
      card.hidden = false;
      card.dataset.question = q.id;
      count.textContent = "第 " + (position + 1) + " / " + queue.length + " 题";
      question.innerHTML = "";
      var link = document.createElement("a");
      link.href = new URL(q.url, root).href;
      link.textContent = q.text;
      question.appendChild(link);
      answer.hidden = true;
      answer.innerHTML = "";
      marks.hidden = true;
      reveal.hidden = false;
      statusLine.textContent = "先想一想，再点“显示答案”。";
    }

    function start(pool) {
      queue = shuffle(pool.slice());
      position = 0;
      tally = { known: 0, unknown: 0 };
      showQuestion();
    }

    function showAnswer() {
      var q = queue[position];
      if (!q || !marks.hidden) return;
      reveal.hidden = true;
      answer.hidden = false;
      marks.hidden = false;
      var brief = document.createElement("p");
      brief.innerHTML = "<strong>一句话答案：</strong>";
      brief.appendChild(document.createTextNode(q.brief));
      answer.appendChild(brief);
      statusLine.textContent = "你答出来了吗？";
      // The full answer is the question page's own, fetched from this site.
      fetch(new URL(q.url, root).href).then(function (response) { return response.text(); }).then(function (html) {
        if (queue[position] !== q) return;
        var page = new DOMParser().parseFromString(html, "text/html");
        var full = page.querySelector(".guide-answer");
        if (!full) return;
        var details = document.createElement("div");
        details.className = "guide-practice__full";
        Array.prototype.slice.call(full.children).forEach(function (child) {
          if (child.tagName !== "SUMMARY" && !/一句话答案/.test(child.textContent.slice(0, 8))) details.appendChild(child);
        });
        answer.appendChild(details);
        if (window.guideTypeset) window.guideTypeset(details);
      }).catch(function () { /* offline without the page: the one-line answer stays */ });
    }

    function mark(value) {
      var q = queue[position];
      if (!q || marks.hidden) return;
      var progress = loadProgress();
      progress.questions[q.id] = { status: value, at: new Date().toISOString() };
      saveProgress(progress);
      tally[value] += 1;
      position += 1;
      renderTable();
      showQuestion();
    }

    function exportProgress() {
      var blob = new Blob([JSON.stringify(loadProgress(), null, 2)], { type: "application/json" });
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "guide-progress.json";
      document.body.appendChild(link);
      link.click();
      link.remove();
    }

    function importProgress(file) {
      file.text().then(function (text) {
        var incoming = JSON.parse(text);
        if (!incoming || typeof incoming.questions !== "object") throw new Error("not a progress file");
        var progress = loadProgress();
        Object.keys(incoming.questions).forEach(function (id) {
          var entry = incoming.questions[id];
          var mine = progress.questions[id];
          if (entry && (entry.status === "known" || entry.status === "unknown") && (!mine || mine.at < entry.at)) {
            progress.questions[id] = entry;
          }
        });
        saveProgress(progress);
        renderTable();
        statusLine.textContent = "已导入 " + Object.keys(incoming.questions).length + " 条记录。";
      }).catch(function (error) {
        statusLine.textContent = "导入失败：" + error.message;
      });
    }

    app.addEventListener("click", function (event) {
      var action = event.target.closest("[data-action]");
      if (!action) return;
      var name = action.dataset.action;
      if (name === "start") start(selected());
      else if (name === "retry") {
        var progress = loadProgress();
        var pool = selected().filter(function (q) { return status(progress, q.id) === "unknown"; });
        if (pool.length) start(pool);
        else statusLine.textContent = "这个范围里没有标记为“不会”的题。";
      } else if (name === "reveal") showAnswer();
      else if (name === "known" || name === "unknown") mark(name);
      else if (name === "export") exportProgress();
      else if (name === "reset" && window.confirm("清空这台设备上的全部练习进度？")) {
        saveProgress({ version: 1, questions: {} });
        renderTable();
      }
    });
    app.querySelector("[data-action=import]").addEventListener("change", function (event) {
      if (event.target.files[0]) importProgress(event.target.files[0]);
      event.target.value = "";
    });
    document.addEventListener("keydown", function (event) {
      if (!document.body.contains(app) || card.hidden || /^(input|select|textarea)$/i.test(event.target.tagName)) return;
      if (event.key === " " && marks.hidden) { event.preventDefault(); showAnswer(); }
      else if (event.key === "1") mark("known");
      else if (event.key === "2") mark("unknown");
    });
    renderTable();
  }

  function onPage() {
    showMarks();
    var app = document.getElementById("practice");
    if (app) setupDrill(app);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onPage);
  else onPage();
})();
