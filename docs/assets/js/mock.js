// The mock interview at /mock/: one question at a time, a timer, and an interviewer's follow-ups.
// A good answer (良好 / 简单) is followed by the question's first follow-up not yet asked; a weak
// one (重来 / 困难) moves on to a new opening question. Openings come from what the chosen
// company's reports asked (most asked first), or from the chosen topic, and questions that start a
// chain come first. Grades go into the same FSRS schedule as /practice/ (window.guideProgress,
// from practice.js). At the end: every question asked, with its grade, and the concepts that went
// badly, linked to their notes and cheat sheets.
(function () {
  "use strict";

  function openings(data, company, topic) {
    // The questions a session opens with: the company's (most asked first, as its reports give
    // them) or all (most asked first), within the topic; questions that start a chain come first,
    // as interviewers open with a core question and dig in.
    var ids = company ? (data.companies[company] || []) : Object.keys(data.questions);
    var list = ids.map(function (id) { return data.questions[id]; }).filter(function (q) { return q && (!topic || q.topic === topic); });
    if (!company) list.sort(function (a, b) { return b.asked - a.asked || a.id.localeCompare(b.id); });
    var chained = list.filter(function (q) { return q.follow_ups.length; });
    var rest = list.filter(function (q) { return !q.follow_ups.length; });
    return chained.concat(rest);
  }

  function followUp(data, q, rating, asked) {
    // After a good answer (良好 / 简单), the first of its follow-ups not asked yet; else none.
    if (rating < 3) return null;
    return q.follow_ups.map(function (id) { return data.questions[id]; }).filter(function (f) { return f && !asked[f.id]; })[0] || null;
  }

  window.guideMock = { openings: openings, followUp: followUp };

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

    function ask(q, label) {
      state.current = q;
      state.asked[q.id] = true;
      card.show({ id: q.id, text: q.text, brief: q.brief, url: q.url }, label === "追问" ? label : "");
      count.textContent = "第 " + (state.log.length + 1) + " 题" + (label ? "（" + label + "）" : "");
      statusLine.textContent = "先开口答，再点“显示答案”对照。";
    }

    function nextOpening() {
      while (state.openings.length) {
        var q = state.openings.shift();
        if (!state.asked[q.id]) return q;
      }
      return null;
    }

    function begin() {
      var company = form.elements.company.value;
      var topic = form.elements.topic.value;
      var first = openings(data, company, topic);
      if (!first.length) {
        statusLine.textContent = company ? "这家公司的面经里没有这个专题的题，换个组合试试。" : "这个范围里没有题。";
        return;
      }
      state = { openings: first, asked: {}, log: [], current: null, timeUp: false,
                deadline: Date.now() + Number(form.elements.minutes.value) * 60000 };
      summary.hidden = true;
      summary.innerHTML = "";
      timer.hidden = false;
      finishButton.hidden = false;
      clock();
      state.tick = setInterval(clock, 1000);
      ask(nextOpening(), "");
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
