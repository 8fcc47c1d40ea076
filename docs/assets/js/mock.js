// The mock interview at /mock/: one question at a time, a timer, and an interviewer's follow-ups.
// A good answer (良好 / 简单) is followed by the question's first follow-up not yet asked; a weak
// one (重来 / 困难) moves on to a new opening question. Openings come from what the chosen
// company's reports asked (most asked first), or from the chosen topic, and questions that start a
// chain come first. Grades go into the same FSRS schedule as /practice/ (window.guideProgress,
// from practice.js). At the end: every question asked, with its grade, and the concepts that went
// badly, linked to their notes and cheat sheets.
(function () {
  "use strict";

  // How much more likely a question is to open a session (see openings).
  var CHAIN = 2, WEAK = 3, DUE = 2, RECENT = 0.05;

  function openings(data, company, topic, known, random) {
    // The questions a session opens with, drawn at random so that no two sessions run alike, each
    // weighted (weighted sampling without replacement: key = u^(1/weight)): more often asked in
    // reports, starting a chain (interviewers open with a core question and dig in), answered
    // badly last time or due for review; rarely one asked in the last sessions. `known(id)`:
    // {weak, due, recent}; the company's questions are those its reports asked.
    random = random || Math.random;
    var ids = company ? (data.companies[company] || []) : Object.keys(data.questions);
    var list = ids.map(function (id) { return data.questions[id]; }).filter(function (q) { return q && (!topic || q.topic === topic); });
    return list.map(function (q) {
      var k = known ? known(q.id) : {};
      var weight = (1 + Math.log(1 + q.asked)) * (q.follow_ups.length ? CHAIN : 1) * (k.weak ? WEAK : 1) *
        (k.due ? DUE : 1) * (k.recent ? RECENT : 1);
      return { q: q, key: Math.pow(random(), 1 / weight) };
    }).sort(function (a, b) { return b.key - a.key || (a.q.id < b.q.id ? -1 : 1); }).map(function (x) { return x.q; });
  }

  function followUp(data, q, rating, asked) {
    // After a good answer (良好 / 简单), the first of its follow-ups not asked yet; else none.
    if (rating < 3) return null;
    return q.follow_ups.map(function (id) { return data.questions[id]; }).filter(function (f) { return f && !asked[f.id]; })[0] || null;
  }

  // A session in progress is kept in this browser, so that leaving the page (a link, a reload, the
  // phone locking) and coming back resumes it; the last sessions' questions are remembered so the
  // next one opens elsewhere.
  var SESSION = "guide-mock-session";
  var RECENT_KEY = "guide-mock-recent";
  var RECENT_SESSIONS = 3;
  var STALE = 12 * 3600e3;  // a session left this long after its time ran out is not resumed

  function saved() {
    try { return JSON.parse(localStorage.getItem(SESSION) || "null"); } catch (error) { return null; }
  }

  function recentIds() {
    var recent = {};
    try { (JSON.parse(localStorage.getItem(RECENT_KEY) || "[]")).forEach(function (ids) { ids.forEach(function (id) { recent[id] = true; }); }); }
    catch (error) { /* unreadable: none */ }
    return recent;
  }

  function remember(ids) {
    var sessions = [];
    try { sessions = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]"); } catch (error) { sessions = []; }
    sessions.unshift(ids);
    localStorage.setItem(RECENT_KEY, JSON.stringify(sessions.slice(0, RECENT_SESSIONS)));
  }

  window.guideMock = { openings: openings, followUp: followUp, recentIds: recentIds, remember: remember };

  function setup(app, s) {
    var P = window.guideProgress;
    var data = JSON.parse(app.querySelector("#mock-data").textContent);
    var form = app.querySelector("form");
    form.addEventListener("submit", function (event) { event.preventDefault(); });  // settings only
    var card = new window.guideCard(app.querySelector(".guide-practice__card"));
    var count = app.querySelector(".guide-practice__count");
    var statusLine = app.querySelector(".guide-practice__status");
    var timer = app.querySelector(".guide-mock__timer");
    var summary = app.querySelector(".guide-mock__summary");
    var finishButton = app.querySelector("[data-action=finish]");
    var root = new URL("../../", document.querySelector("script[src*='assets/js/mock.js']").src);
    var progress = P.load();
    var state = null;

    function clock() {
      if (!state) return;
      var left = Math.max(0, state.deadline - Date.now());
      var text = "剩余 " + Math.floor(left / 60000) + ":" + String(Math.floor(left / 1000) % 60).padStart(2, "0");
      if (timer.textContent !== text) timer.textContent = text;
      if (!left) state.timeUp = true;
    }

    function keep() {
      localStorage.setItem(SESSION, JSON.stringify({
        company: state.company, topic: state.topic, deadline: state.deadline, label: state.label,
        openings: state.openings.map(function (q) { return q.id; }), asked: state.asked, current: state.current.id,
        log: state.log.map(function (e) { return { id: e.q.id, rating: e.rating }; }),
      }));
    }

    function ask(q, label) {
      state.current = q;
      state.label = label;
      state.asked[q.id] = true;
      card.show({ id: q.id, text: q.text, brief: q.brief, url: q.url }, label === "追问" ? label : "");
      var title = card.question.querySelector("a");
      if (title) { title.target = "_blank"; title.rel = "noopener"; }  // reading the page does not end the session
      count.textContent = "第 " + (state.log.length + 1) + " 题" + (label ? "（" + label + "）" : "");
      statusLine.textContent = "先开口答，再点“显示答案”对照。";
      keep();
    }

    function nextOpening() {
      while (state.openings.length) {
        var q = state.openings.shift();
        if (!state.asked[q.id]) return q;
      }
      return null;
    }

    function known(id) {
      var last = progress.last[id];
      return { weak: Boolean(last && last.rating <= 2), due: P.isDue(s, progress, id, new Date()), recent: recent[id] };
    }

    function start(fresh) {
      summary.hidden = true;
      summary.innerHTML = "";
      timer.hidden = false;
      finishButton.hidden = false;
      clock();
      state.tick = setInterval(clock, 1000);
      if (fresh) ask(nextOpening(), "");
    }

    var recent = recentIds();

    function begin() {
      if (state) clearInterval(state.tick);
      var company = form.elements.company.value;
      var topic = form.elements.topic.value;
      var first = openings(data, company, topic, known);
      if (!first.length) {
        statusLine.textContent = company ? "这家公司的面经里没有这个专题的题，换个组合试试。" : "这个范围里没有题。";
        return;
      }
      state = { company: company, topic: topic, openings: first, asked: {}, log: [], current: null, timeUp: false,
                deadline: Date.now() + Number(form.elements.minutes.value) * 60000 };
      start(true);
    }

    function resume(kept) {
      // The session this browser was in the middle of, as it was left: same question, same clock.
      var find = function (id) { return data.questions[id]; };
      if (!kept || !find(kept.current)) return false;
      state = { company: kept.company, topic: kept.topic, deadline: kept.deadline, asked: kept.asked || {}, timeUp: false,
                openings: (kept.openings || []).map(find).filter(Boolean),
                log: (kept.log || []).filter(function (e) { return find(e.id); }).map(function (e) { return { q: find(e.id), rating: e.rating }; }),
                current: null };
      form.elements.company.value = kept.company || "";
      form.elements.topic.value = kept.topic || "";
      start(false);
      ask(find(kept.current), kept.label || "");
      statusLine.textContent = "接着上次没做完的模拟面试。先开口答，再点“显示答案”对照。";
      return true;
    }

    function rate(rating) {
      if (!state || !state.current || card.grades.hidden) return;
      var q = state.current;
      P.grade(s, progress, q.id, rating, new Date());
      state.log.push({ q: q, rating: rating });
      if (state.timeUp) return finish("时间到。");
      var follow = followUp(data, q, rating, state.asked);
      if (follow) return ask(follow, "追问");
      var opening = nextOpening();
      if (opening) return ask(opening, state.log.length ? "换个问题" : "");
      finish("这个范围的题问完了。");
    }

    function link(url, text) {
      var a = document.createElement("a");
      a.href = new URL(url, root).href;
      a.textContent = text;
      return a;
    }

    function finish(reason) {
      if (!state) return;
      clearInterval(state.tick);
      localStorage.removeItem(SESSION);
      remember(Object.keys(state.asked));
      card.el.hidden = true;
      card.current = null;
      finishButton.hidden = true;
      timer.hidden = true;
      var log = state.log;
      state = null;
      summary.hidden = false;
      summary.innerHTML = "";
      var head = document.createElement("h2");
      head.textContent = "总结";
      summary.appendChild(head);
      var line = document.createElement("p");
      line.textContent = (reason || "") + "共问了 " + log.length + " 题，其中追问 " +
        log.filter(function (e, i) { return i && log[i - 1].q.follow_ups.indexOf(e.q.id) >= 0; }).length + " 题。";
      summary.appendChild(line);
      var weak = {};
      log.forEach(function (e) { if (e.rating <= 2) weak[e.q.concept] = true; });
      var weakIds = Object.keys(weak);
      var h3 = document.createElement("h3");
      h3.textContent = weakIds.length ? "没答好的知识点" : "这一轮没有答得不好的题";
      summary.appendChild(h3);
      if (weakIds.length) {
        var list = document.createElement("ul");
        list.className = "guide-mock__weak";
        weakIds.forEach(function (id) {
          var c = data.concepts[id];
          var li = document.createElement("li");
          li.appendChild(link(c.url, c.title));
          li.appendChild(document.createTextNode(" · "));
          li.appendChild(link(c.sheet, "速查表"));
          list.appendChild(li);
        });
        summary.appendChild(list);
      }
      var h3b = document.createElement("h3");
      h3b.textContent = "问过的题";
      summary.appendChild(h3b);
      var asked = document.createElement("ol");
      log.forEach(function (e) {
        var li = document.createElement("li");
        li.appendChild(link(e.q.url, e.q.text));
        li.appendChild(document.createTextNode("（" + P.RATINGS[e.rating] + "）"));
        asked.appendChild(li);
      });
      summary.appendChild(asked);
      statusLine.textContent = "打的分已经记进复习排期，明天去“练习”里复习。";
    }

    app.addEventListener("click", function (event) {
      var action = event.target.closest("[data-action], [data-rating]");
      if (!action) return;
      if (action.dataset.rating) return rate(Number(action.dataset.rating));
      var name = action.dataset.action;
      if (name === "begin") begin();
      else if (name === "finish") finish("提前结束。");
      else if (name === "reveal" && card.open(s, progress)) statusLine.textContent = "答得怎么样？如实打分：答好了才会被追问。";
    });
    document.addEventListener("keydown", function (event) {
      if (!state || card.el.hidden || /^(input|select|textarea)$/i.test(event.target.tagName)) return;
      if (event.key === " " && card.grades.hidden) {
        event.preventDefault();
        if (card.open(s, progress)) statusLine.textContent = "答得怎么样？如实打分：答好了才会被追问。";
      } else if (/^[1-4]$/.test(event.key)) rate(Number(event.key));
    });
    var kept = saved();
    if (kept && Date.now() - kept.deadline < STALE) resume(kept);
    else localStorage.removeItem(SESSION);
    app.dataset.ready = "true";
  }

  function onPage() {
    var app = document.getElementById("mock");
    if (!app || !window.guideProgress) return;
    window.guideProgress.withScheduler().then(function (s) { setup(app, s); }).catch(function (error) {
      app.querySelector(".guide-practice__status").textContent = "复习排期不可用：" + error.message;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", onPage);
  else onPage();
})();
