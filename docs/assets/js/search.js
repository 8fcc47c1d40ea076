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

  function pagefindWord(token) {
    if (!HAN_CHAR.test(token)) return token;
    return HAN_MARK + Array.from(token).map(function (c) { return hanCode(c.codePointAt(0)); }).join("");
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

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { queryTokens: queryTokens, highlightTerms: highlightTerms, pagefindWord: pagefindWord };
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

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
    if (!loading) {
      loading = import(new URL("pagefind/pagefind.js", root).href).then(function (pagefind) {
        return Promise.resolve(pagefind.init ? pagefind.init() : null).then(function () { return pagefind; });
      });
    }
    return loading;
  }

  // ---- the dialog ----------------------------------------------------------------------------
  var MAX_RESULTS = 8;
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

  // Ranking, in groups: pages whose title contains every query word, then whose title or aliases
  // do (concepts, companies and topics first, then questions and reports), then pages that match
  // in their text; Pagefind's score orders each group.  Names sit at fixed word positions of every
  // indexed page (TITLE_SPAN and HEAD in hooks/guide/search.py), and Pagefind reports matched
  // positions without downloading anything, so metadata is fetched only for the results shown.
  var TITLE_SPAN = 48;
  var HEAD = 128;
  var CANDIDATES = 200;

  function group(result, wanted) {
    var counts = [0, 0, 0, 0];
    result.words.forEach(function (w) {
      if (w < 2 * HEAD) counts[(w >= HEAD ? 2 : 0) + (w % HEAD < TITLE_SPAN ? 0 : 1)]++;
    });
    if (counts[0] >= wanted) return 0;
    if (counts[0] + counts[1] >= wanted) return 1;
    if (counts[2] >= wanted) return 2;
    if (counts[2] + counts[3] >= wanted) return 3;
    return 4;
  }

  function ranked(results, wanted) {
    return results.slice(0, CANDIDATES).map(function (r, i) { return [group(r, wanted), i, r]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .map(function (x) { return x[2]; })
      .concat(results.slice(CANDIDATES));
  }

  // A reader's question often has one word no page uses ("长文本 瓶颈", "LoRA 全参 对比"): every
  // page must match every word, so such a query found nothing.  When fewer than RELAX_BELOW pages
  // match all of it, the query is also run without each one of its words (or, for a single word,
  // without each one of its tokens), and those partial matches follow the full ones, title matches
  // first.  Only the chunks of the words actually searched are fetched.
  var RELAX_BELOW = 5;

  function variants(query, tokens) {
    var words = query.trim().split(/\s+/).filter(Boolean);
    if (words.length > 1) {
      return words.map(function (_, i) {
        return queryTokens(words.filter(function (_, j) { return j !== i; }).join(" "));
      });
    }
    if (tokens.length < 2) return [];
    return tokens.map(function (_, i) { return tokens.filter(function (_, j) { return j !== i; }); });
  }

  function relaxed(pagefind, query, tokens, full) {
    var seen = {};
    full.forEach(function (r) { seen[r.id] = true; });
    var searches = variants(query, tokens).filter(function (v) { return v.length; }).map(function (v) {
      return pagefind.search(v.map(pagefindWord).join(" ")).then(function (found) { return [v, found.results]; });
    });
    return Promise.all(searches).then(function (all) {
      var extra = [];
      all.forEach(function (pair, order) {
        ranked(pair[1], pair[0].length).forEach(function (r, rank) {
          if (!seen[r.id]) { seen[r.id] = true; extra.push([group(r, pair[0].length), rank, order, r]); }
        });
      });
      return extra.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; }).map(function (x) { return x[3]; });
    });
  }

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
    return loadPagefind().then(function (pagefind) {
      return pagefind.search(tokens.map(pagefindWord).join(" ")).then(function (found) {
        var full = ranked(found.results, tokens.length);
        if (full.length >= RELAX_BELOW) return { full: full, partial: [] };
        return relaxed(pagefind, query, tokens, full).then(function (partial) { return { full: full, partial: partial }; });
      });
    }).then(function (found) {
      if (mine !== sequence) return;
      var top = found.full.concat(found.partial).slice(0, MAX_RESULTS);
      var datas = new Array(top.length);
      var shown = 0;
      ui.meta.textContent = found.full.length ? "找到 " + found.full.length + " 个页面" + (found.partial.length ? "，另有部分匹配" : "")
        : found.partial.length ? "没有页面包含所有关键词；下面是部分匹配的页面" : "没有找到结果：换个说法，或者查看关键词索引";
      if (!top.length) ui.list.innerHTML = "";
      return Promise.all(top.map(function (result, index) {
        return result.data().then(function (data) {
          if (mine !== sequence) return;
          datas[index] = data;
          var ready = 0;
          while (ready < datas.length && datas[ready]) ready++;
          if (ready > shown) {
            shown = ready;
            render(ui, query, datas.slice(0, ready));
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
