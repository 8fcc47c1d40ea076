// Study mode: progress in this browser, review scheduling with FSRS, the drill at /practice/ and the
// marks on question and topic pages.
//
// Progress is one object in localStorage (KEY): the FSRS card of every question practised, the last
// grade given to each, the reader's settings and how many new questions each day brought in. The
// scheduler is ts-fsrs (npm, FSRS-6), served by this site and loaded only where a card is graded
// (/practice/, /mock/). Marks from before spaced review (OLD_KEY: 会 / 不会) are migrated without
// loss: each becomes the grade it was (会 = 良好, 不会 = 重来) at the time it was given, and its card
// is replayed from that review the first time the scheduler is loaded. Export and import carry
// everything; an import of an old file migrates the same way. No third-party code, works offline.
(function () {
  "use strict";

  var KEY = "guide-progress-v2";
  var OLD_KEY = "guide-progress-v1";
  var RATINGS = { 1: "重来", 2: "困难", 3: "良好", 4: "简单" };
  var script = document.currentScript;
  var root = new URL("../../", script ? script.src : location.href);

  // ---- the stored progress ---------------------------------------------------------------------
  function empty() {
    return { version: 2, cards: {}, last: {}, settings: { newPerDay: 10 }, newDays: {}, plan: {} };
  }

  function fromOld(old, into) {
    // {version: 1, questions: {id: {status: "known" | "unknown", at}}} -> grades, cards to replay.
    Object.keys((old && old.questions) || {}).forEach(function (id) {
      var entry = old.questions[id];
      if (!entry || (entry.status !== "known" && entry.status !== "unknown")) return;
      var mine = into.last[id];
      if (!mine || mine.at < entry.at) {
        into.last[id] = { rating: entry.status === "known" ? 3 : 1, at: entry.at, migrated: true };
        delete into.cards[id];
      }
    });
    return into;
  }

  function load() {
    var data = null;
    try { data = JSON.parse(localStorage.getItem(KEY) || "null"); } catch (error) { data = null; }
    if (data && data.version === 2) {
      var base = empty();
      Object.keys(base).forEach(function (k) { if (data[k] === undefined) data[k] = base[k]; });
      return data;
    }
    var progress = empty();
    try { fromOld(JSON.parse(localStorage.getItem(OLD_KEY) || "null"), progress); } catch (error) { /* unreadable: start afresh */ }
    if (Object.keys(progress.last).length) save(progress);  // the old key is left as it was
    return progress;
  }

  function save(progress) {
    localStorage.setItem(KEY, JSON.stringify(progress));
  }

  function merge(progress, incoming) {
    if (incoming && incoming.version === 2) {
      Object.keys(incoming.last || {}).forEach(function (id) {
        var entry = incoming.last[id];
        var mine = progress.last[id];
        if (entry && (!mine || mine.at < entry.at)) {
          progress.last[id] = entry;
          if (incoming.cards && incoming.cards[id]) progress.cards[id] = incoming.cards[id];
          else delete progress.cards[id];
        }
      });
      if (incoming.settings) progress.settings = incoming.settings;
      var days = Object.keys(incoming.plan || {}).filter(function (day) {
        var entry = incoming.plan[day];
        var mine = progress.plan[day];
        if (!entry || typeof entry.at !== "string" || (mine && mine.at >= entry.at)) return false;
        progress.plan[day] = { done: !!entry.done, at: entry.at };
        return true;
      });
      return Object.keys(incoming.last || {}).length + days.length;
    }
    if (incoming && typeof incoming.questions === "object") {
      fromOld(incoming, progress);
      return Object.keys(incoming.questions).length;
    }
    throw new Error("不是本指南导出的进度文件");
  }

  function known(progress, id) {
    var last = progress.last[id];
    return last ? (last.rating >= 3 ? "known" : "unknown") : "";
  }

  // ---- the scheduler (FSRS), loaded on demand ------------------------------------------------------
  var scheduler = null;

  function withScheduler() {
    if (!scheduler) {
      scheduler = new Promise(function (resolve, reject) {
        if (window.FSRS) return resolve(window.FSRS);
        var tag = document.createElement("script");
        tag.src = new URL("assets/vendor/ts-fsrs.umd.js", root).href;
        tag.onload = function () { resolve(window.FSRS); };
        tag.onerror = function () { reject(new Error("ts-fsrs 加载失败")); };
        document.head.appendChild(tag);
      }).then(function (FSRS) {
        return { FSRS: FSRS, f: FSRS.fsrs(FSRS.generatorParameters({ enable_fuzz: false })) };
      });
    }
    return scheduler;
  }

  function toCard(FSRS, stored) {
    var card = Object.assign({}, stored);
    card.due = new Date(stored.due);
    card.last_review = stored.last_review ? new Date(stored.last_review) : undefined;
    return card;
  }

  function fromCard(card) {
    var stored = Object.assign({}, card);
    stored.due = card.due.toISOString();
    stored.last_review = card.last_review ? new Date(card.last_review).toISOString() : null;
    return stored;
  }

  function cardOf(s, progress, id, now) {
    // A card exists for every question graded since spaced review; a migrated mark is replayed.
    if (progress.cards[id]) return toCard(s.FSRS, progress.cards[id]);
    var last = progress.last[id];
    if (last) {
      var at = new Date(last.at);
      var card = s.f.next(s.FSRS.createEmptyCard(at), at, last.rating).card;
      progress.cards[id] = fromCard(card);
      return card;
    }
    return s.FSRS.createEmptyCard(now);
  }

  function dayKey(date) {
    return date.getFullYear() + "-" + String(date.getMonth() + 1).padStart(2, "0") + "-" + String(date.getDate()).padStart(2, "0");
  }

  function grade(s, progress, id, rating, now) {
    var isNew = !progress.cards[id] && !progress.last[id];
    var next = s.f.next(cardOf(s, progress, id, now), now, rating).card;
    progress.cards[id] = fromCard(next);
    progress.last[id] = { rating: rating, at: now.toISOString() };
    if (isNew) progress.newDays[dayKey(now)] = (progress.newDays[dayKey(now)] || 0) + 1;
    save(progress);
    return next;
  }

  function interval(ms) {
    var minutes = Math.max(1, Math.round(ms / 60000));
    if (minutes < 60) return minutes + " 分钟";
    var hours = Math.round(minutes / 60);
    if (hours < 24) return hours + " 小时";
    var days = Math.round(hours / 24);
    if (days < 31) return days + " 天";
    if (days < 365) return Math.round(days / 30) + " 个月";
    return (days / 365).toFixed(1).replace(/\.0$/, "") + " 年";
  }

  function preview(s, progress, id, now) {
    // What each grade would schedule: shown on its button, so the reader sees the cost of a grade.
    var card = cardOf(s, progress, id, now);
    var options = s.f.repeat(card, now);
    var out = {};
    [1, 2, 3, 4].forEach(function (rating) { out[rating] = interval(options[rating].card.due - now); });
    return out;
  }

  function isDue(s, progress, id, now) {
    return (progress.cards[id] || progress.last[id]) ? cardOf(s, progress, id, now).due <= now : false;
  }

  function seen(progress, id) { return Boolean(progress.cards[id] || progress.last[id]); }

  function newLeft(progress, now) {
    // New questions still allowed today at the reader's pace.
    return Math.max(0, progress.settings.newPerDay - (progress.newDays[dayKey(now)] || 0));
  }

  var NEW_EVERY = 3;

  function todaysQueue(s, progress, pool, now) {
    // Due cards first (oldest due first), with new questions mixed in: one after every NEW_EVERY.
    // New questions come in the pool's order (the guide's learning order), foundations first.
    var due = pool.filter(function (q) { return isDue(s, progress, q.id, now); });
    due.sort(function (a, b) { return cardOf(s, progress, a.id, now).due - cardOf(s, progress, b.id, now).due; });
    var fresh = pool.filter(function (q) { return !seen(progress, q.id); }).slice(0, newLeft(progress, now));
    var mixed = [];
    while (due.length || fresh.length) {
      mixed.push.apply(mixed, due.splice(0, NEW_EVERY));
      if (fresh.length) mixed.push(fresh.shift());
    }
    return mixed;
  }

  // ---- the study plan's days: ticked or not, with when (the newer wins on import) -----------------
  function markDay(progress, day, done, now) {
    progress.plan[day] = { done: done, at: now.toISOString() };
  }

  function dayDone(progress, day) {
    var entry = progress.plan[day];
    return !!(entry && entry.done);
  }

  window.guideProgress = {
    load: load, save: save, merge: merge, known: known, withScheduler: withScheduler, grade: grade,
    preview: preview, isDue: isDue, cardOf: cardOf, dayKey: dayKey, interval: interval, RATINGS: RATINGS,
    seen: seen, newLeft: newLeft, todaysQueue: todaysQueue, empty: empty, markDay: markDay, dayDone: dayDone,
    appendWithFormulas: appendWithFormulas,
  };

  // The plan page's days (task-list items that start 第 N 天) become checkboxes kept in progress.
  function planDays() {
    var items = Array.prototype.slice.call(document.querySelectorAll(".guide-plan .task-list-item"));
    var count = document.querySelector(".guide-plan__count");
    var days = items.map(function (item) {
      var number = /第\s*(\d+)\s*天/.exec(item.textContent);
      var box = item.querySelector("input[type=checkbox]");
      return number && box ? { id: "day-" + number[1], box: box } : null;
    }).filter(Boolean);
    if (!days.length) return;
    function tally(progress) {
      var done = days.filter(function (d) { return dayDone(progress, d.id); }).length;
      if (count) { count.hidden = false; count.textContent = "已完成 " + done + " / " + days.length + " 天"; }
    }
    var progress = load();
    days.forEach(function (d) {
      d.box.disabled = false;
      d.box.checked = dayDone(progress, d.id);
      d.box.setAttribute("aria-label", "第 " + d.id.slice(4) + " 天已完成");
      d.box.addEventListener("change", function () {
        var now = load();
        markDay(now, d.id, d.box.checked, new Date());
        save(now);
        tally(now);
      });
    });
    tally(progress);
  }

  // ---- marks on the bank and topic pages --------------------------------------------------------
  // Elements are written only when their mark changes: a page with nothing practised yet is
  // left exactly as built, with no style work while it loads.
  function showMarks() {
    var progress = load();
    document.querySelectorAll(".guide-progress[data-questions]").forEach(function (el) {
      var ids = el.dataset.questions.split(/\s+/).filter(Boolean);
      var good = ids.filter(function (id) { return known(progress, id) === "known"; }).length;
      var bad = ids.filter(function (id) { return known(progress, id) === "unknown"; }).length;
      var text = good || bad ? "练习进度：会 " + good + " / 不会 " + bad + " / 共 " + ids.length : "";
      if (el.textContent !== text) el.textContent = text;
    });
    document.querySelectorAll(".guide-mark[data-question]").forEach(function (el) {
      var s = known(progress, el.dataset.question);
      var text = s === "known" ? "✓ 会" : s === "unknown" ? "✗ 不会" : "";
      var name = "guide-mark" + (s ? " guide-mark--" + s : "");
      if (el.textContent !== text) el.textContent = text;
      if (el.className !== name) el.className = name;
    });
  }

  // ---- a card: question, answer on demand, four grades --------------------------------------------
  // Shared by the drill and the mock interview: `card` is the element holding the pieces below.
  function fullAnswer(q, into, stillCurrent) {
    // The full answer is the question page's own, fetched from this site (from the offline copy
    // when there is one); offline without the page, the one-line answer stays.
    fetch(new URL(q.url, root).href).then(function (response) { return response.text(); }).then(function (html) {
      if (!stillCurrent()) return;
      var page = new DOMParser().parseFromString(html, "text/html");
      var full = page.querySelector(".guide-answer");
      if (!full) return;
      var details = document.createElement("div");
      details.className = "guide-practice__full";
      Array.prototype.slice.call(full.children).forEach(function (child) {
        if (child.tagName !== "SUMMARY" && !/一句话答案/.test(child.textContent.slice(0, 8))) details.appendChild(child);
      });
      into.appendChild(details);
      if (window.guideTypeset) window.guideTypeset(details);
    }).catch(function () { /* see above */ });
  }

  function Card(el) {
    this.el = el;
    this.question = el.querySelector(".guide-practice__question");
    this.reveal = el.querySelector("[data-action=reveal]");
    this.answer = el.querySelector(".guide-practice__answer");
    this.grades = el.querySelector(".guide-practice__marks");
    this.current = null;
  }

  Card.prototype.show = function (q, label) {
    this.current = q;
    this.el.hidden = false;
    this.el.dataset.question = q.id;
    this.question.innerHTML = "";
    if (label) {
      var tag = document.createElement("span");
      tag.className = "guide-practice__tag";
      tag.textContent = label;
      this.question.appendChild(tag);
    }
    var link = document.createElement("a");
    link.href = new URL(q.url, root).href;
    link.textContent = q.text;
    this.question.appendChild(link);
    this.answer.hidden = true;
    this.answer.innerHTML = "";
    this.grades.hidden = true;
    this.reveal.hidden = false;
    // A new card starts at the top of the screen: after a long answer, or below the filters on a
    // phone, it would otherwise begin out of sight.
    var top = this.el.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 3) this.el.scrollIntoView({ block: "start" });
  };

  // A one-line answer's text with its $…$ formulas as the page marks them (math.js typesets them
  // with the site's KaTeX); a lone or escaped $ stays text.
  function appendWithFormulas(into, text) {
    var pattern = /(^|[^\\])\$([^$]+?)\$/g;
    var last = 0;
    var match;
    while ((match = pattern.exec(text))) {
      var start = match.index + match[1].length;
      into.appendChild(document.createTextNode(text.slice(last, start)));
      var formula = document.createElement("span");
      formula.className = "arithmatex";
      formula.textContent = "\\(" + match[2] + "\\)";
      into.appendChild(formula);
      last = pattern.lastIndex;
    }
    into.appendChild(document.createTextNode(text.slice(last)));
  }

  Card.prototype.open = function (s, progress) {
    var q = this.current;
    if (!q || !this.grades.hidden) return false;
    this.reveal.hidden = true;
    this.answer.hidden = false;
    var brief = document.createElement("p");
    brief.innerHTML = "<strong>一句话答案：</strong>";
    appendWithFormulas(brief, q.brief);
    this.answer.appendChild(brief);
    if (window.guideTypeset) window.guideTypeset(brief);
    var self = this;
    fullAnswer(q, this.answer, function () { return self.current === q; });
    var labels = preview(s, progress, q.id, new Date());
    this.grades.querySelectorAll("[data-rating]").forEach(function (button) {
      button.querySelector(".guide-grade__interval").textContent = labels[button.dataset.rating];
    });
    this.grades.hidden = false;
    return true;
  };

  window.guideCard = Card;

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

  function setupDrill(app, s) {
    var data = JSON.parse(app.querySelector("#practice-data").textContent);
    var form = app.querySelector("form");
    form.addEventListener("submit", function (event) { event.preventDefault(); });  // filters only
    var card = new Card(app.querySelector(".guide-practice__card"));
    var count = app.querySelector(".guide-practice__count");
    var statusLine = app.querySelector(".guide-practice__status");
    var table = app.querySelector(".guide-practice__progress tbody");
    var dueCount = app.querySelector("[data-count=due]");
    var newCount = app.querySelector("[data-count=new]");
    var perDay = app.querySelector("input[name=new-per-day]");
    var queue = [];
    var position = 0;
    var tally = {};
    var progress = load();
    perDay.value = String(progress.settings.newPerDay);

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

    function renderCounts() {
      var now = new Date();
      var pool = selected();
      dueCount.textContent = String(pool.filter(function (q) { return isDue(s, progress, q.id, now); }).length);
      newCount.textContent = String(Math.min(newLeft(progress, now), pool.filter(function (q) { return !seen(progress, q.id); }).length));
    }

    function renderTable() {
      // The page has a row per topic already (nothing practised); only the counts change, in place.
      var now = new Date();
      table.querySelectorAll("tr[data-topic]").forEach(function (row) {
        var ids = data.questions.filter(function (q) { return q.topic === row.dataset.topic; });
        var learned = ids.filter(function (q) { return seen(progress, q.id); }).length;
        var due = ids.filter(function (q) { return isDue(s, progress, q.id, now); }).length;
        [learned, due, ids.length - learned].forEach(function (value, i) {
          if (row.cells[i + 1].textContent !== String(value)) row.cells[i + 1].textContent = String(value);
        });
      });
      renderCounts();
    }

    function showQuestion() {
      if (position >= queue.length) {
        card.el.hidden = true;
        card.current = null;
        var done = Object.keys(tally).reduce(function (n, k) { return n + tally[k]; }, 0);
        statusLine.textContent = queue.length
          ? "这一轮完成：" + [1, 2, 3, 4].map(function (r) { return RATINGS[r] + " " + (tally[r] || 0); }).join("，") +
            "（共 " + done + " 次）。" + (tally[1] || tally[2] ? "点“重练答得不好的”再来一遍。" : "")
          : "这个范围里现在没有要做的题。";
        renderTable();
        return;
      }
      var q = queue[position];
      card.show(q, q.kind === "coding" ? "手撕" : "");
      count.textContent = "第 " + (position + 1) + " / " + queue.length + " 题";
      statusLine.textContent = "先想一想（或写一写），再点“显示答案”。";
    }

    function start(pool) {
      queue = pool;
      position = 0;
      tally = {};
      showQuestion();
    }

    function rate(rating) {
      var q = card.current;
      if (!q || card.grades.hidden) return;
      var now = new Date();
      var next = grade(s, progress, q.id, rating, now);
      tally[rating] = (tally[rating] || 0) + 1;
      // A card back within a learning step (minutes) comes again in this session, after the rest.
      if (next.due - now < 20 * 60000 && queue.slice(position + 1).indexOf(q) < 0) queue.push(q);
      position += 1;
      renderTable();
      showQuestion();
    }

    function exportProgress() {
      var blob = new Blob([JSON.stringify(load(), null, 2)], { type: "application/json" });
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "guide-progress.json";
      document.body.appendChild(link);
      link.click();
      link.remove();
    }

    function importProgress(file) {
      file.text().then(function (text) {
        progress = load();
        var n = merge(progress, JSON.parse(text));
        save(progress);
        perDay.value = String(progress.settings.newPerDay);
        renderTable();
        statusLine.textContent = "已导入 " + n + " 条记录。";
      }).catch(function (error) {
        statusLine.textContent = "导入失败：" + error.message;
      });
    }

    app.addEventListener("click", function (event) {
      var action = event.target.closest("[data-action], [data-rating]");
      if (!action) return;
      if (action.dataset.rating) return rate(Number(action.dataset.rating));
      var name = action.dataset.action;
      if (name === "review") {
        var pool = todaysQueue(s, progress, selected(), new Date());
        if (pool.length) start(pool);
        else statusLine.textContent = "今天这个范围里没有到期的题，也没有新题额度了。";
      } else if (name === "start") start(shuffle(selected()));
      else if (name === "retry") {
        var unknown = selected().filter(function (q) { return known(progress, q.id) === "unknown"; });
        if (unknown.length) start(shuffle(unknown));
        else statusLine.textContent = "这个范围里没有答得不好的题。";
      } else if (name === "reveal") {
        if (card.open(s, progress)) statusLine.textContent = "答得怎么样？按实际情况选一档，它决定下次什么时候再考你。";
      } else if (name === "export") exportProgress();
      else if (name === "reset" && window.confirm("清空这台设备上的全部练习进度？")) {
        progress = empty();
        progress.settings.newPerDay = Number(perDay.value) || 10;
        save(progress);
        localStorage.removeItem(OLD_KEY);
        renderTable();
      }
    });
    form.addEventListener("change", renderCounts);
    perDay.addEventListener("change", function () {
      var value = Math.max(0, Math.min(200, Math.round(Number(perDay.value) || 0)));
      perDay.value = String(value);
      progress.settings.newPerDay = value;
      save(progress);
      renderCounts();
    });
    app.querySelector("[data-action=import]").addEventListener("change", function (event) {
      if (event.target.files[0]) importProgress(event.target.files[0]);
      event.target.value = "";
    });
    document.addEventListener("keydown", function (event) {
      if (!document.body.contains(app) || card.el.hidden || /^(input|select|textarea)$/i.test(event.target.tagName)) return;
      if (event.key === " " && card.grades.hidden) {
        event.preventDefault();
        if (card.open(s, progress)) statusLine.textContent = "答得怎么样？按实际情况选一档，它决定下次什么时候再考你。";
      } else if (/^[1-4]$/.test(event.key)) rate(Number(event.key));
    });
    renderTable();
    save(progress);  // cards replayed from migrated marks (while counting what is due) are kept
    app.dataset.ready = "true";
  }

  function onPage() {
    showMarks();
    planDays();
    var app = document.getElementById("practice");
    if (app) {
      withScheduler().then(function (s) { setupDrill(app, s); }).catch(function (error) {
        app.querySelector(".guide-practice__status").textContent = "复习排期不可用：" + error.message;
      });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onPage);
  else onPage();
})();
