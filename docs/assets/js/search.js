// The guide's keyword search: our tokenizer (the same as hooks/guide/search.py, kept equal by a
// test) in front of Pagefind, which loads only the index chunks a query needs.  Results use
// Material's search-result markup and styles; clicking one opens the page with ?h=<query>, and
// the page highlights the terms.  Nothing is fetched until the reader opens the search box.
(function () {
  "use strict";

  // ---- tokenizer: keep in step with hooks/guide/search.py -------------------------------
  var HAN = "\\u4e00-\\u9fff";
  var WORD = "(?:(?![" + HAN + "])[\\p{L}\\p{N}])";
  var RUN = new RegExp("([" + HAN + "]+)|(" + WORD + "+(?:[_\\-.]" + WORD + "+)*)", "gu");
  var PARTS = /[_\-.]/;
  var HAN_CHAR = new RegExp("^[" + HAN + "]");

  function normalize(text) {
    return text.normalize("NFKC").toLowerCase();
  }

  function hanTokens(run) {
    var chars = Array.from(run);
    if (chars.length === 1) return chars;
    var out = [];
    for (var i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    return out;
  }

  function wordTokens(word) {
    var parts = word.split(PARTS).filter(Boolean);
    return parts.length > 1 ? parts.concat([parts.join("")]) : parts;
  }

  function queryTokens(query) {
    var tokens = [];
    var text = normalize(query);
    var match;
    RUN.lastIndex = 0;
    while ((match = RUN.exec(text))) {
      tokens = tokens.concat(match[1] ? hanTokens(match[1]) : wordTokens(match[2]));
    }
    // A lone Han character next to other words is a particle (GRPO 的 KL): drop it, as search.py does.
    var longer = tokens.filter(function (t) { return Array.from(t).length > 1 || !HAN_CHAR.test(t); });
    if (longer.length) tokens = longer;
    return tokens.filter(function (t, i) { return tokens.indexOf(t) === i; });
  }

  // The word Pagefind stores for a token: Han characters as HAN_MARK + three symbols each
  // (search.py, pagefind_word: Pagefind's own query parser mishandles Han characters).
  var HAN_MARK = "\u01c2";
  var CODE_SYMBOLS = "0123456789bcdfghjklmnpqrstvwxz";

  function hanCode(point) {
    var value = point - 0x4e00;
    var out = "";
    for (var i = 0; i < 3; i++) {
      out = CODE_SYMBOLS[value % CODE_SYMBOLS.length] + out;
      value = Math.floor(value / CODE_SYMBOLS.length);
    }
    return out;
  }

  var WORD_END = "\u01c3";

  // `prefix`: the word being typed, which may be longer in the page (search.py, WORD_END). A Han
  // character pair is always looked up whole; a single Han character as a prefix, so that it finds
  // the pairs it starts.
  function pagefindWord(token, prefix) {
    if (!HAN_CHAR.test(token)) return prefix ? token : token + WORD_END;
    var chars = Array.from(token);
    var code = HAN_MARK + chars.map(function (c) { return hanCode(c.codePointAt(0)); }).join("");
    return prefix && chars.length === 1 ? code : code + WORD_END;
  }

  // The pieces of a query to highlight: whole Han runs and words as typed, longest first.
  function highlightTerms(query) {
    var terms = [];
    var text = normalize(query);
    var match;
    RUN.lastIndex = 0;
    while ((match = RUN.exec(text))) {
      var piece = match[1] || match[2];
      terms.push(piece);
      if (match[1] && Array.from(piece).length > 2) terms = terms.concat(hanTokens(piece));
      if (match[2]) terms = terms.concat(wordTokens(piece));
    }
    terms = terms.filter(function (t, i) { return t && terms.indexOf(t) === i; });
    return terms.sort(function (a, b) { return b.length - a.length; });
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  // ---- ranking ---------------------------------------------------------------------------
  // Every query token is looked up on its own, so a page is found by any of the query's words
  // and no word is required: a word no page uses costs nothing. A page's score adds, for each
  // query term, how rare the term is (fewer pages, more weight) times where the page has it:
  // title, then names (English name, aliases), then summary, headings, text. Pagefind returns each
  // match's word positions before any page data is downloaded, and search.py puts every field at
  // fixed positions (same constants there), so the field is known from the position alone. Tokens
  // that sit side by side in the page as in the query (a phrase) earn more; a page that owns a
  // name (concept, coding task, company) is told from where its names sit.
  var TITLE_SPAN = 48;
  var NAMES_END = 128;
  var HEAD = 192;
  var HEADINGS_SPAN = 96;
  var BODY_START = 2 * HEAD + HEADINGS_SPAN;
  var FIELD_WEIGHT = { title: 8, names: 6, summary: 3, headings: 2, body: 1 };
  var PHRASE = 0.6;      // per adjacent pair of query tokens found side by side, times their rarity
  var OWNER = 1.15;      // a concept, coding task or company matched by its title or names
  var ALL_TERMS = 1.25;  // a page that has every term of the query
  var SYNONYM = 0.9;     // a word of a synonym group the reader did not type
  var SENTENCE = 0.8;    // a question's (or a listing page's) title and names are sentences, not names
  var LEAD = 1.03;       // the query's first word opens the page's title: the page is named after it

  function field(position) {
    if (position >= BODY_START) return "body";
    if (position >= 2 * HEAD) return "headings";
    var offset = position % HEAD;
    return offset < TITLE_SPAN ? "title" : offset < NAMES_END ? "names" : "summary";
  }

  // The query as terms: each {alternatives: token lists, typed: the tokens the reader typed}. A
  // term is one word of the query, or a synonym group's slot: the tokens of the word the query
  // used, or of any other word of its group.
  function terms(query, synonyms) {
    var text = normalize(query);
    var slots = [];
    var used = {};
    (synonyms || []).forEach(function (group) {
      var hit = group.map(normalize).filter(function (w) {
        return /^[\x00-\x7f]+$/.test(w) ? new RegExp("(^|[^a-z0-9])" + escapeRegExp(w) + "($|[^a-z0-9])").test(text) : text.indexOf(w) >= 0;
      })[0];
      if (!hit) return;
      var typed = queryTokens(hit);
      typed.forEach(function (t) { used[t] = true; });
      slots.push({ alternatives: group.map(function (w) { return queryTokens(w); }).filter(function (ts) { return ts.length; }),
                   typed: typed });
    });
    // Each word of the query (a Han run, a Latin word) is one term, its tokens together: a
    // four-character Han word weighs as much as one English word, not three times as much.
    var wanted = queryTokens(query);
    var words = [];
    var match;
    RUN.lastIndex = 0;
    while ((match = RUN.exec(text))) {
      var tokens = (match[1] ? hanTokens(match[1]) : wordTokens(match[2])).filter(function (t) {
        return wanted.indexOf(t) >= 0 && !used[t];
      });
      if (tokens.length) words.push({ alternatives: [tokens], typed: tokens });
    }
    return words.concat(slots);
  }

  // hits[token] = Pagefind's results for the token alone; returns pages best first, each
  // {result, score, complete}.
  function rank(allTerms, hits, pages, order) {
    var byPage = {};
    var rarityOf = {};
    Object.keys(hits).forEach(function (token) {
      var results = hits[token];
      var rarity = rarityOf[token] = Math.log(1 + pages / Math.max(1, results.length));
      results.forEach(function (r) {
        var page = byPage[r.id] || (byPage[r.id] = { result: r, tokens: {}, owner: false });
        var best = 0;
        var inBody = 0;
        r.words.forEach(function (w) {
          var f = field(w);
          if (f === "body") inBody++;
          else best = Math.max(best, FIELD_WEIGHT[f] * (w < HEAD || f === "headings" ? 1 : SENTENCE));
          if (w < HEAD && (f === "title" || f === "names")) page.owner = true;
        });
        if (inBody) best = Math.max(best, FIELD_WEIGHT.body * (1 + 0.3 * Math.min(inBody - 1, 2)));
        page.tokens[token] = { field: best, rarity: rarity, positions: r.words };
      });
    });
    return Object.keys(byPage).map(function (id) {
      var page = byPage[id];
      var score = 0;
      var complete = true;
      // A term scores the rarity of what the reader typed (its tokens' mean) times where the page
      // has it: the field weights of the tokens it has, each weighed by how rare the token is, over
      // all of them (a page with only 学习 gets little of 强化学习). For a synonym slot, the best
      // of the group's words, a word other than the one typed counting a little less.
      allTerms.forEach(function (term) {
        var rarity = 0;
        term.typed.forEach(function (t) { rarity += (rarityOf[t] || 0) / term.typed.length; });
        var best = 0;
        term.alternatives.forEach(function (tokens, index) {
          var got = 0, all = 0;
          tokens.forEach(function (t) {
            all += rarityOf[t] || 0;
            if (page.tokens[t]) got += page.tokens[t].field * page.tokens[t].rarity;
          });
          var typed = tokens.join(" ") === term.typed.join(" ");
          if (all) best = Math.max(best, got / all * (typed || term.alternatives.length === 1 ? 1 : SYNONYM));
        });
        best *= rarity;
        if (!best) complete = false;
        score += best;
      });
      for (var i = 0; i + 1 < order.length; i++) {
        var a = page.tokens[order[i]], b = page.tokens[order[i + 1]];
        if (a && b && adjacent(a.positions, b.positions)) score += PHRASE * Math.min(a.rarity, b.rarity) * FIELD_WEIGHT.title / 2;
      }
      if (page.owner) score *= OWNER;
      var first = order.length ? page.tokens[order[0]] : null;
      if (first && first.positions.some(function (p) { return p === 0 || p === HEAD; })) score *= LEAD;
      if (complete) score *= ALL_TERMS;
      return { result: page.result, score: score, complete: complete };
    }).sort(function (x, y) { return y.score - x.score || (x.result.id < y.result.id ? -1 : 1); });
  }

  function adjacent(first, second) {
    var next = {};
    first.forEach(function (p) { next[p + 1] = true; });
    return second.some(function (p) { return next[p]; });
  }

  if (typeof module !== "undefined" && module.exports) {  // node: the tokenizer and ranking tests
    module.exports = { queryTokens: queryTokens, highlightTerms: highlightTerms, pagefindWord: pagefindWord,
                       terms: terms, rank: rank, field: field, mergeResults: mergeResults };
    return;
  }

  // ---- helpers ------------------------------------------------------------------------------
  var script = document.currentScript;
  var root = new URL("../../", script ? script.src : location.href);

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }


  function termPattern(terms) {
    return terms.length ? new RegExp(terms.map(escapeRegExp).join("|"), "gi") : null;
  }

  // Escaped HTML of `text` with every match of `pattern` wrapped in <mark>.
  function markTerms(text, pattern) {
    if (!pattern) return escapeHtml(text);
    var out = "";
    var last = 0;
    var m;
    pattern.lastIndex = 0;
    while ((m = pattern.exec(text))) {
      if (!m[0].length) { pattern.lastIndex++; continue; }
      out += escapeHtml(text.slice(last, m.index)) + "<mark>" + escapeHtml(m[0]) + "</mark>";
      last = m.index + m[0].length;
    }
    return out + escapeHtml(text.slice(last));
  }

  // A window of text around the first match, with every term marked.
  function snippet(text, terms, width) {
    var lower = text.toLowerCase();
    var at = -1;
    for (var i = 0; i < terms.length && at < 0; i++) at = lower.indexOf(terms[i]);
    var start = Math.max(0, at < 0 ? 0 : at - Math.floor(width / 3));
    var piece = text.slice(start, start + width).replace(/\s+/g, " ");
    return (start > 0 ? "…" : "") + markTerms(piece, termPattern(terms)) + (start + width < text.length ? "…" : "");
  }

  // ---- Pagefind ------------------------------------------------------------------------------
  var loading = null;

  function loadPagefind() {
    // Pagefind, and guide-search.json beside its index: how many pages there are (a term's
    // rarity) and the synonym groups (content/synonyms.yml).
    if (!loading) {
      var stats = fetch(new URL("pagefind/guide-search.json", root).href).then(function (r) { return r.json(); });
      loading = import(new URL("pagefind/pagefind.js", root).href).then(function (pagefind) {
        return Promise.all([pagefind.init ? pagefind.init() : null, stats]).then(function (done) {
          return { pagefind: pagefind, pages: done[1].pages, synonyms: done[1].synonyms };
        });
      });
    }
    return loading;
  }

  // Pagefind's results for each token alone (its own search would require every word); a Latin
  // word exactly, but for the one being typed (see exactTokens).
  // A prefix lookup can miss the whole word itself (`grpo` as a prefix found 208 pages, `grpo`
  // whole 276: Pagefind reads the prefix's words from one part of its index), so the word being
  // typed is looked up both ways and the pages merged.
  function lookup(pagefind, tokens, exact) {
    var hits = {};
    return Promise.all(tokens.map(function (t) {
      // one after the other: both read the same part of the index
      return pagefind.search(pagefindWord(t, false)).then(function (whole) {
        if (exact[t] || pagefindWord(t, true) === pagefindWord(t, false)) { hits[t] = whole.results; return null; }
        return pagefind.search(pagefindWord(t, true)).then(function (prefix) { hits[t] = mergeResults(whole.results, prefix.results); });
      });
    })).then(function () { return hits; });
  }

  // Pagefind's results for one token from two lookups: each page once, with every word position.
  // The entries are Pagefind's own result objects, never copies: Pagefind frees a result's data
  // once its object is garbage-collected (pagefind.js, FinalizationRegistry), and a copy's data()
  // then resolves to null. A page in both lookups keeps the first object, its words extended.
  function mergeResults(first, second) {
    var byId = {};
    var out = [];
    first.concat(second).forEach(function (r) {
      var seen = byId[r.id];
      if (!seen) { byId[r.id] = r; out.push(r); return; }
      r.words.forEach(function (w) { if (seen.words.indexOf(w) < 0) seen.words.push(w); });
    });
    return out;
  }

  // The tokens to look up exactly: short Latin words (up to EXACT_UP_TO letters) other than the
  // one being typed (the query's last). A short word's longer forms are mostly other words (`deep`,
  // `deepseek`; `rl`, `rlhf`), a long word's mostly its own forms (`chunk`, `chunks`, `chunking`).
  // Han tokens are exact already (a character pair's code is a prefix of no other code).
  var EXACT_UP_TO = 4;

  function exactTokens(query, needed) {
    var typed = queryTokens(query);
    var last = typed[typed.length - 1];
    var exact = {};
    needed.forEach(function (t) {
      if (!HAN_CHAR.test(t) && t.length <= EXACT_UP_TO && (t !== last || /\s$/.test(query))) exact[t] = true;
    });
    return exact;
  }

  // ---- the dialog ----------------------------------------------------------------------------
  var MAX_RESULTS = 8;
  var MISSING = {};
  var sequence = 0;

  function elements() {
    var dialog = document.querySelector(".guide-search");
    if (!dialog) return null;
    return {
      toggle: document.getElementById("__search"),
      input: dialog.querySelector("input[name=q]"),
      meta: dialog.querySelector(".md-search-result__meta"),
      list: dialog.querySelector(".md-search-result__list"),
      form: dialog.querySelector("form"),
    };
  }

  function resultHtml(data, terms, query) {
    var meta = data.meta || {};
    var url = new URL((meta.url || data.url.replace(/^\//, "")), root);
    url.searchParams.set("h", query);
    var context = [meta.kind, meta.context].filter(Boolean).join(" · ");
    var title = markTerms(meta.title || data.url, termPattern(terms));
    return '<li class="md-search-result__item"><a href="' + escapeHtml(url.href) + '" class="md-search-result__link" tabindex="-1">' +
      '<article class="md-search-result__article md-typeset">' +
      "<h1>" + title + "</h1>" +
      (context ? '<p class="guide-search__context">' + escapeHtml(context) + "</p>" : "") +
      "<p>" + snippet(meta.text || "", terms, 90) + "</p>" +
      "</article></a></li>";
  }

  // The ranking of a query with each page's score, for a reader who wonders why (and for tests):
  // guideSearchRanks("GRPO clip 作用") in the console.
  window.guideSearchRanks = function (query, n) {
    return loadPagefind().then(function (search) {
      var allTerms = terms(query, search.synonyms);
      var needed = [];
      allTerms.forEach(function (term) { term.alternatives.forEach(function (ts) { needed = needed.concat(ts); }); });
      return lookup(search.pagefind, needed, exactTokens(query, needed)).then(function (hits) {
        var ranked = rank(allTerms, hits, search.pages, queryTokens(query)).slice(0, n || 10);
        return Promise.all(ranked.map(function (p) {
          return p.result.data().then(function (d) { return { url: d.meta.url, score: Math.round(p.score * 100) / 100, complete: p.complete }; });
        }));
      });
    });
  };

  function render(ui, query, datas) {
    var terms = highlightTerms(query);
    ui.list.innerHTML = datas.map(function (d) { return resultHtml(d, terms, query); }).join("");
  }

  // Results appear as their metadata arrives, in rank order: the first shows as soon as its own
  // metadata is in, without waiting for the rest.  data-ms records when the first results showed,
  // data-query marks the list complete (the tests wait for it).
  function search(ui, query) {
    var mine = ++sequence;
    var tokens = queryTokens(query);
    var started = performance.now();
    delete ui.list.dataset.ms;
    if (!tokens.length) {
      ui.list.innerHTML = "";
      ui.meta.textContent = "输入中文或英文关键词，例如 熵坍塌、重要性采样、ppo_mini_batch_size";
      return Promise.resolve();
    }
    return loadPagefind().then(function (search) {
      var allTerms = terms(query, search.synonyms);
      var needed = [];
      allTerms.forEach(function (term) {
        term.alternatives.forEach(function (ts) { ts.forEach(function (t) { if (needed.indexOf(t) < 0) needed.push(t); }); });
      });
      return lookup(search.pagefind, needed, exactTokens(query, needed)).then(function (hits) {
        var ranked = rank(allTerms, hits, search.pages, tokens);
        return { full: ranked.filter(function (p) { return p.complete; }), partial: ranked.filter(function (p) { return !p.complete; }),
                 ranked: ranked };
      });
    }).then(function (found) {
      if (mine !== sequence) return;
      var top = found.ranked.slice(0, MAX_RESULTS).map(function (p) { return p.result; });
      var datas = new Array(top.length);
      var shown = 0;
      ui.meta.textContent = found.full.length ? "找到 " + found.full.length + " 个页面" + (found.partial.length ? "，另有部分匹配" : "")
        : found.partial.length ? "没有页面包含所有关键词；下面是部分匹配的页面" : "没有找到结果：换个说法，或者查看关键词索引";
      if (!top.length) ui.list.innerHTML = "";
      return Promise.all(top.map(function (result, index) {
        return result.data().then(function (data) {
          if (mine !== sequence) return;
          datas[index] = data || MISSING;  // data Pagefind no longer holds: the others still show
          var ready = 0;
          while (ready < datas.length && datas[ready]) ready++;
          if (ready > shown) {
            shown = ready;
            render(ui, query, datas.slice(0, ready).filter(function (d) { return d !== MISSING; }));
            if (!ui.list.dataset.ms) ui.list.dataset.ms = String(Math.round(performance.now() - started));
          }
        });
      })).then(function () {
        if (mine !== sequence) return;
        if (!ui.list.dataset.ms) ui.list.dataset.ms = String(Math.round(performance.now() - started));
        ui.list.dataset.query = query;
      });
    }).catch(function (error) {
      if (mine === sequence) ui.meta.textContent = "搜索暂时不可用：" + error;
    });
  }

  function open(ui) {
    if (!ui.toggle.checked) {
      ui.toggle.checked = true;
      ui.toggle.dispatchEvent(new Event("change"));
    }
    ui.input.focus();
    loadPagefind();
  }

  function close(ui) {
    ui.toggle.checked = false;
    ui.toggle.dispatchEvent(new Event("change"));
    ui.input.blur();
  }

  // On a phone the open search covers the page: the page must not scroll or widen behind it
  // (Material's expanding overlay would widen it). Material's own scroll lock, as its search sets it.
  var PHONE = "(max-width: 59.984375em)";
  var lockedAt = null;

  function scrollLock(on) {
    var body = document.body;
    if (on && lockedAt === null && window.matchMedia(PHONE).matches) {
      lockedAt = window.scrollY;
      body.style.top = -lockedAt + "px";
      body.setAttribute("data-md-scrolllock", "");
    } else if (!on && lockedAt !== null) {
      body.removeAttribute("data-md-scrolllock");
      body.style.top = "";
      window.scrollTo(0, lockedAt);
      lockedAt = null;
    }
  }

  function setup() {
    var ui = elements();
    if (!ui) return;
    // Text committed by an input method arrives as an input event (often with no key events):
    // search on every non-composing input, and once more when a composition ends.
    ui.input.addEventListener("input", function (event) {
      if (!event.isComposing) search(ui, ui.input.value);
    });
    ui.input.addEventListener("compositionend", function () { search(ui, ui.input.value); });
    ui.input.addEventListener("focus", function () { open(ui); });
    ui.toggle.addEventListener("change", function () {
      scrollLock(ui.toggle.checked);
      if (ui.toggle.checked) setTimeout(function () { ui.input.focus(); }, 50);
    });
    ui.form.addEventListener("submit", function (event) { event.preventDefault(); });  // Enter opens a result
    ui.form.addEventListener("reset", function () {
      setTimeout(function () { search(ui, ""); ui.input.focus(); }, 0);
    });
    ui.input.addEventListener("keydown", function (event) {
      var links = Array.prototype.slice.call(ui.list.querySelectorAll("a"));
      if (event.key === "Enter" && links.length) {
        event.preventDefault();
        links[0].click();
      } else if (event.key === "ArrowDown" && links.length) {
        event.preventDefault();
        links[0].focus();
      } else if (event.key === "Escape") {
        close(ui);
      }
    });
    ui.list.addEventListener("keydown", function (event) {
      var links = Array.prototype.slice.call(ui.list.querySelectorAll("a"));
      var index = links.indexOf(document.activeElement);
      if (event.key === "ArrowDown" && index + 1 < links.length) { event.preventDefault(); links[index + 1].focus(); }
      if (event.key === "ArrowUp") { event.preventDefault(); (index > 0 ? links[index - 1] : ui.input).focus(); }
      if (event.key === "Escape") close(ui);
    });
    ui.list.addEventListener("click", function (event) {
      if (event.target.closest("a")) close(ui);
    });
    // ?q=words (the 404 page's search form, or a shared link) opens the search with them typed.
    var asked = new URLSearchParams(location.search).get("q");
    if (asked && asked.trim()) {
      ui.input.value = asked;
      open(ui);
      search(ui, asked);
    }
    document.addEventListener("keydown", function (event) {
      var typing = /^(input|textarea|select)$/i.test(event.target.tagName) || event.target.isContentEditable;
      if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && (event.key === "/" || event.key === "s")) {
        event.preventDefault();
        open(ui);
      }
    });
  }

  // ---- highlight the terms on the page a result leads to ----------------------------------
  function highlightPage() {
    var query = new URLSearchParams(location.search).get("h");
    var article = document.querySelector(".md-content article");
    if (!query || !article || article.dataset.highlighted === query) return;
    article.dataset.highlighted = query;
    var pattern = termPattern(highlightTerms(query));
    if (!pattern) return;
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        return node.parentElement.closest(".katex, .arithmatex, script, style, mark, .headerlink")
          ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      },
    });
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    var first = null;
    nodes.forEach(function (node) {
      pattern.lastIndex = 0;
      if (!pattern.test(node.data)) return;
      pattern.lastIndex = 0;
      var fragment = document.createDocumentFragment();
      var last = 0;
      var m;
      while ((m = pattern.exec(node.data))) {
        if (!m[0].length) { pattern.lastIndex++; continue; }
        fragment.appendChild(document.createTextNode(node.data.slice(last, m.index)));
        var mark = document.createElement("mark");
        mark.className = "guide-hit";
        mark.textContent = m[0];
        fragment.appendChild(mark);
        first = first || mark;
        last = m.index + m[0].length;
      }
      fragment.appendChild(document.createTextNode(node.data.slice(last)));
      node.parentNode.replaceChild(fragment, node);
    });
    if (first) first.scrollIntoView({ block: "center" });
  }

  function onPage() {
    setup();
    highlightPage();
  }

  // Material marks its drawer and search toggles autocomplete="off" so that a browser restoring
  // form state cannot reopen them; that attribute is invalid on checkboxes (the build strips
  // it), so they are closed here whenever a page is shown, including from the back-forward cache.
  window.addEventListener("pageshow", function () {
    ["__drawer", "__search"].forEach(function (id) {
      var toggle = document.getElementById(id);
      if (toggle && toggle.checked) toggle.click();
    });
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onPage);
  } else {
    onPage();
  }
})();
