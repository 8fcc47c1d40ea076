"""Stage 4: lay the linked corpus out as Markdown pages through Jinja templates.

Content is data handed *into* templates and is never compiled as a template,
so `{{ x }}`, `{% %}` and LaTeX braces in a note come out literally.  The
templates only lay out; the choices (what counts, in which order) are made
here in `View`.
"""
from __future__ import annotations

import functools
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import yaml
from pypinyin import Style, lazy_pinyin

from .conceptmap import topic_map
from .link import Links, company_counts, original
from .errors import Problem
from .model import CodingTask, Company, Concept, Corpus, EntityId, Question, Report, SrcUri
from .safe import Markdown, html_text, md_code, md_text, md_url
from .text import bullets_and_formulas, headings, section
from .urls import cheatsheet_src, company_src, entity_src, index_src, md_link, pdf_url, site_href, topic_src, url_of


"""Stands for the path to the site root inside a cached concept map."""

CHEATSHEET_QUESTIONS = 8
"""Most-asked questions printed on a topic's cheat sheet, with their one-line answers."""


@dataclass(frozen=True)
class SheetEntry:
    """One concept's block on a cheat sheet."""

    concept: Concept
    bullets: list[Markdown]
    """Each bullet's Markdown, continuation lines indented to stay inside the list item."""
    formulas: list[Markdown]


@dataclass(frozen=True)
class Keyword:
    term: str
    letter: str
    target: str
    """Markdown link to the page the term belongs to."""
    note: str


class View:
    """Lookups and small decisions the templates ask for."""

    def __init__(self, corpus: Corpus, links: Links):
        self.corpus = corpus
        self.links = links
        self.taxonomy = corpus.taxonomy
        self.guide = corpus.guide
        self.sections = {name: kind.headings for name, kind in corpus.guide.kinds.items()}
        """The headings each kind's page adds, by key (guide.yml)."""
        self._maps: dict[str, str] = {}

    # links
    def link(self, entity_id: str, text: str | None = None) -> Markdown:
        target = self.links.table[entity_id]
        return Markdown(f"[{md_text(text or target.label)}]({md_link(target.src)})")

    def links_to(self, ids: list[str] | tuple[str, ...], sep: str = "、") -> Markdown:
        return Markdown(sep.join(self.link(i) for i in ids))

    def topic_link(self, topic_id: str) -> Markdown:
        return Markdown(f"[{md_text(self.taxonomy.topic[topic_id].title)}]({md_link(topic_src(topic_id))})")

    def company_link(self, company_id: str | None) -> Markdown:
        if not company_id:
            return Markdown("未注明公司")
        return Markdown(f"[{md_text(self.taxonomy.company[company_id].name)}]({md_link(company_src(company_id))})")

    def difficulty(self, difficulty_id: str) -> str:
        return self.taxonomy.difficulty[difficulty_id].title

    # relations
    def question_topic(self, question: Question) -> str:
        """A question sits under the topic of the concept it tests."""
        return self.corpus.concepts[question.primary].topic

    def questions_in_topic(self, topic_id: str) -> list[Question]:
        return [q for q in self.corpus.questions.values() if self.question_topic(q) == topic_id]

    def reports_asking(self, question_id: str) -> list[Report]:
        return [self.corpus.reports[r] for r in self.links.asked_in.get(question_id, ())]

    def asked_count(self, question_id: str) -> int:
        """Distinct reports (duplicates fold into their original) that asked a question."""
        return len({original(r) for r in self.reports_asking(question_id)})

    def concept_reach(self, concept_id: str) -> dict[str, Any]:
        counts = company_counts(self.corpus, self.links, EntityId(concept_id))
        reports = [self.corpus.reports[r] for r in self.links.reports_of.get(concept_id, ())]
        return {
            "count": len(reports),
            "reports": reports,
            "companies": [(self.taxonomy.company[c], n) for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))],
            "questions": [self.corpus.questions[q] for q in self.links.questions_of.get(concept_id, ())],
            "drawn_on_by": [self.corpus.questions[q] for q in self.links.drawn_on_by.get(concept_id, ())],
        }

    def reports_by_company(self) -> list[tuple[Company | None, list[Report]]]:
        groups: dict[str | None, list[Report]] = defaultdict(list)
        for report in self.corpus.reports.values():
            groups[report.company].append(report)
        ordered: list[tuple[Company | None, list[Report]]] = [(c, groups[c.id]) for c in self.taxonomy.companies if groups.get(c.id)]
        if groups.get(None):
            ordered.append((None, groups[None]))
        return ordered

    def company_reports(self, company_id: str) -> list[Report]:
        return [r for r in self.corpus.reports.values() if r.company == company_id]

    def distinct(self, reports: list[Report]) -> int:
        return len({original(r) for r in reports})

    def company_concepts(self, company_id: str) -> list[tuple[Concept, int]]:
        """Concepts a company's distinct reports reach, most asked first."""
        counts: Counter[str] = Counter()
        for concept_id, groups in self.links.reports_of.items():
            n = sum(1 for g in groups if self.corpus.reports[g].company == company_id)
            if n:
                counts[concept_id] = n
        return [(self.corpus.concepts[EntityId(c)], n) for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]

    def ranking(self) -> list[tuple[Concept, dict[str, Any]]]:
        """考频: concepts by how many distinct reports reach them."""
        rows = [(c, self.concept_reach(c.id)) for c in self.corpus.concepts.values()]
        return sorted(rows, key=lambda row: (-row[1]["count"], row[0].id))

    def topic_company_table(self) -> dict[str, dict[str, int]]:
        """Distinct reports per (topic, company) that reach any concept of the topic."""
        cells: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for concept_id, groups in self.links.reports_of.items():
            topic = self.corpus.concepts[concept_id].topic
            for group in groups:
                company = self.corpus.reports[group].company
                if company:
                    cells[topic][company].add(group)
        return {t: {c: len(g) for c, g in row.items()} for t, row in cells.items()}

    def sheet(self, topic_id: str) -> list[SheetEntry]:
        """The sheet's concepts (the topic's `sheet:` list, else all) in learning order, each with the
        bullets and key formulas of its cheat-sheet section (guide.yml)."""
        chosen = set(self.taxonomy.topic[topic_id].sheet)
        feeds = self.guide.concept.cheat_sheet
        entries = []
        for concept_id in self.links.learning_order.get(topic_id, []):
            if chosen and concept_id not in chosen:
                continue
            bullets, formulas = bullets_and_formulas(section(self.links.bodies[concept_id], feeds.name) if feeds else "")
            entries.append(SheetEntry(self.corpus.concepts[concept_id], [Markdown(b.replace("\n", "\n  ")) for b in bullets],
                                      [Markdown(f) for f in formulas]))
        return entries

    def sheet_omitted(self, topic_id: str) -> list[Concept]:
        """The topic's concepts its sheet leaves out, in learning order: named, so none is lost."""
        chosen = set(self.taxonomy.topic[topic_id].sheet)
        return [self.corpus.concepts[c] for c in self.links.learning_order.get(topic_id, []) if chosen and c not in chosen]

    def sheet_questions(self, topic_id: str) -> list[Question]:
        """The topic's questions most asked across distinct reports (then easier first)."""
        rank = {d.id: d.rank for d in self.taxonomy.difficulties}
        questions = self.questions_in_topic(topic_id)
        questions.sort(key=lambda q: (-self.asked_count(q.id), rank.get(q.difficulty, 0), q.id))
        return questions[:CHEATSHEET_QUESTIONS]

    # coding tasks

    def coding_topic(self, task: CodingTask) -> str | None:
        """A coding task belongs to the topic of its main (first) concept; None without concepts."""
        return self.corpus.concepts[task.concepts[0]].topic if task.concepts else None

    def coding_asked_count(self, task_id: str) -> int:
        """Distinct reports (duplicates fold into their original) that asked for a coding task."""
        return len({original(self.corpus.reports[r]) for r in self.links.coding_asked_in.get(task_id, ())})

    def coding_reports(self, task_id: str) -> list[Report]:
        return [self.corpus.reports[r] for r in self.links.coding_asked_in.get(task_id, ())]

    def coding_groups(self) -> list[tuple[Any, list[CodingTask]]]:
        """/coding/: tasks by kind (taxonomy order), most asked first, then easier, then by id."""
        rank = {d.id: d.rank for d in self.taxonomy.difficulties}
        groups: dict[str, list[CodingTask]] = defaultdict(list)
        for task in self.corpus.coding.values():
            groups[task.kind].append(task)
        return [(kind, sorted(groups[kind.id], key=lambda t: (-self.coding_asked_count(t.id), rank.get(t.difficulty, 0), t.id)))
                for kind in self.taxonomy.coding_kinds if groups.get(kind.id)]

    def coding_in_topic(self, topic_id: str) -> list[CodingTask]:
        return [t for t in self.corpus.coding.values() if self.coding_topic(t) == topic_id]

    def coding_ranking(self) -> list[tuple[CodingTask, int]]:
        rows = [(t, self.coding_asked_count(t.id)) for t in self.corpus.coding.values()]
        return sorted([r for r in rows if r[1]], key=lambda r: (-r[1], r[0].id))

    def coding_sections(self, task: CodingTask) -> dict[str, Markdown]:
        """The task's sections (links resolved) by their key in guide.yml, for the template to arrange
        and fold; a section the task leaves out is absent."""
        body = self.links.bodies[task.id]
        present = {h.title for h in headings(body) if h.level == 2}
        return {s.key: Markdown(section(body, s.name)) for s in self.guide.coding.sections if s.key and s.name in present}

    def coding_aliases(self, task: CodingTask) -> list[str]:
        """The task's aliases plus the phrases readers type for any coding task: 手撕 X, X 实现, X 代码."""
        names = [task.title.removeprefix("手撕").strip(), task.en]
        typed = [f"{prefix}{name}{suffix}" for name in names if name for prefix, suffix in (("手撕 ", ""), ("", " 实现"), ("", " 代码"))]
        return list(dict.fromkeys([*task.aliases, *typed]))

    def practice_data(self) -> Markdown:
        """Everything the drill page needs, as JSON for a <script type="application/json">."""
        questions = []
        for q in self.corpus.questions.values():
            companies = sorted({self.corpus.reports[r].company for r in self.links.asked_in.get(q.id, ())
                                if self.corpus.reports[r].company})
            questions.append({
                "id": q.id, "text": q.text, "brief": q.brief, "url": url_of(entity_src(q)),
                "topic": self.question_topic(q), "difficulty": q.difficulty, "companies": companies,
                "asked": self.asked_count(q.id), "kind": "question",
            })
        for t in self.corpus.coding.values():
            companies = sorted({r.company for r in self.coding_reports(t.id) if r.company})
            questions.append({
                "id": t.id, "text": f"手撕：{t.title.removeprefix('手撕').strip()}（{t.signature}）", "brief": t.summary,
                "url": url_of(entity_src(t)), "topic": self.coding_topic(t) or "", "difficulty": t.difficulty,
                "companies": companies, "asked": self.coding_asked_count(t.id), "kind": "coding",
            })
        # In study order, which is the order new cards are dealt in: topics as the guide teaches them,
        # concepts in each topic's learning order, the easier and the more often asked first.
        questions.sort(key=lambda q: self.study_rank(q["id"]))
        data = {"questions": questions}  # topics, companies and difficulties are in the page's HTML
        return script_json(data)

    def study_rank(self, card_id: str) -> tuple[int, int, int, int, str]:
        """Where a question or coding task comes in the guide's learning order: by its (main)
        concept's topic and place in that topic, then difficulty, then most asked first. Coding
        tasks that exercise no concept come last."""
        if card_id in self.corpus.questions:
            question = self.corpus.questions[card_id]
            concept, difficulty, asked = question.primary, question.difficulty, self.asked_count(card_id)
        else:
            task = self.corpus.coding[card_id]
            concept = task.concepts[0] if task.concepts else None
            difficulty, asked = task.difficulty, self.coding_asked_count(card_id)
        difficulty_rank = {d.id: d.rank for d in self.taxonomy.difficulties}.get(difficulty, 0)
        if concept is None:
            return (len(self.taxonomy.topics), 0, difficulty_rank, -asked, card_id)
        topic = self.corpus.concepts[concept].topic
        topic_rank = next(i for i, t in enumerate(self.taxonomy.topics) if t.id == topic)
        return (topic_rank, self.links.learning_order[topic].index(concept), difficulty_rank, -asked, card_id)

    def mock_data(self) -> Markdown:
        """What /mock/ needs, as JSON: every question with its concept and follow-ups, each concept's
        note and cheat sheet, and each company's questions (what its reports asked), most asked first."""
        questions = {}
        concepts: dict[str, dict[str, str]] = {}
        for q in self.corpus.questions.values():
            concept = self.corpus.concepts[q.primary]
            questions[q.id] = {"id": q.id, "text": q.text, "brief": q.brief, "url": url_of(entity_src(q)),
                               "concept": concept.id, "topic": concept.topic, "asked": self.asked_count(q.id),
                               "follow_ups": list(q.follow_ups)}
            concepts[concept.id] = {"title": concept.title, "url": url_of(entity_src(concept)),
                                    "sheet": url_of(cheatsheet_src(concept.topic))}
        companies: dict[str, list[str]] = {}
        for company in self.taxonomy.companies:
            asked: Counter[str] = Counter()
            for report in self.company_reports(company.id):
                for round_ in report.rounds:
                    asked.update(round_.questions)
            if asked:
                companies[company.id] = [q for q, _ in sorted(asked.items(), key=lambda kv: (-kv[1], kv[0]))]
        data = {"questions": questions, "concepts": concepts, "companies": companies}
        return script_json(data)

    def mock_companies(self) -> list[Company]:
        return [c for c in self.taxonomy.companies if any(r.rounds for r in self.company_reports(c.id))]

    def concept_map(self, topic_id: str) -> Markdown:
        """The topic's prerequisite graph as inline SVG, its nodes linked from the site root (site_href)."""
        if topic_id not in self._maps:  # laid out once, shown on the topic page and on /map/
            self._maps[topic_id] = topic_map(
                self.corpus, self.links, topic_id,
                lambda cid: site_href(url_of(entity_src(self.corpus.concepts[EntityId(cid)]))))
        return Markdown(self._maps[topic_id])

    def pdf(self, topic_id: str) -> str:
        """A raw-HTML link to a topic's cheat-sheet PDF."""
        return site_href(pdf_url(topic_id))

    def download(self, path: str) -> str:
        """A raw-HTML link to a file the build writes below the site root (the Anki deck)."""
        return site_href(path)

    def keywords(self) -> list[tuple[str, list[Keyword]]]:
        """Every title, English name and alias, A-Z by pinyin; grouped by first letter."""
        entries: list[Keyword] = []
        for concept in self.corpus.concepts.values():
            target = md_link(entity_src(concept))
            entries.append(Keyword(concept.title, "", target, "概念"))
            if concept.en:
                entries.append(Keyword(concept.en, "", target, concept.title))
            entries.extend(Keyword(alias, "", target, concept.title) for alias in concept.aliases)
        for question in self.corpus.questions.values():
            entries.append(Keyword(question.text, "", md_link(entity_src(question)), "题目"))
        for task in self.corpus.coding.values():
            target = md_link(entity_src(task))
            entries.append(Keyword(task.title, "", target, "手撕"))
            entries.extend(Keyword(word, "", target, task.title) for word in (task.en, *task.aliases) if word)
        for report in self.corpus.reports.values():
            entries.append(Keyword(report.title, "", md_link(entity_src(report)), "面经"))
        for topic in self.taxonomy.topics:
            entries.append(Keyword(topic.title, "", md_link(topic_src(topic.id)), "专题"))
        for company in self.taxonomy.companies:
            entries.append(Keyword(company.name, "", md_link(company_src(company.id)), "公司"))
        keyed = sorted({(sort_key(k.term), k.term, k.target): k for k in entries}.items())
        groups: dict[str, list[Keyword]] = defaultdict(list)
        for (key, _, _), k in keyed:
            letter = key[0].upper() if key and key[0].isascii() and key[0].isalpha() else "#"
            groups[letter].append(Keyword(k.term, letter, k.target, k.note))
        return sorted(groups.items(), key=lambda kv: (kv[0] == "#", kv[0]))


_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def script_json(data: Any) -> Markdown:
    """`data` as compact JSON for a `<script type="application/json">` element. No `<`, `>` or `&`
    is left as such (JSON's \\u escapes read back the same), so no value can end the element or
    open a comment inside it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markdown(re.sub("[<>&]", lambda m: _SCRIPT_UNSAFE[m.group(0)], text))


@functools.lru_cache(maxsize=None)
def sort_key(term: str) -> str:
    """Pinyin (tone-less) for Han characters, lower case for the rest."""
    return "".join(lazy_pinyin(term.strip(), style=Style.NORMAL, errors=lambda s: s)).lower()


def table_cell(text: object) -> object:
    """A value for a Markdown table cell: a `|` in Markdown the engine wrote would end the cell
    (author text has its `|` escaped by `md_text` already)."""
    if isinstance(text, Markdown):
        return Markdown(text.replace("|", "\\|").replace("\n", " "))
    return text


def finalize(value: object) -> object:
    """What every `{{ … }}` of a template prints: Markdown the engine made or checked as it is,
    numbers as numbers, and anything else as author text, escaped (see safe.md_text)."""
    if isinstance(value, Markdown) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return value
    return md_text(value)


_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""libyaml's emitter when PyYAML was built with it: the same YAML, several times faster (600 pages)."""


def front_matter(meta: dict[str, Any]) -> Markdown:
    """The page's front matter: the author's text as written (the theme escapes what it prints)."""
    return Markdown("---\n" + yaml.dump(meta, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=1000) + "---")


_ENVIRONMENTS: dict[str, jinja2.Environment] = {}
"""One Jinja environment per templates folder, kept across the rebuilds of `mkdocs serve`: compiled
templates are reused, and the loader recompiles a template whose file changed (auto_reload)."""


def make_environment(templates: Path) -> jinja2.Environment:
    key = str(templates.resolve())
    if key not in _ENVIRONMENTS:
        _ENVIRONMENTS[key] = _new_environment(templates)
    return _ENVIRONMENTS[key]


def _new_environment(templates: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is Markdown, not HTML: `finalize` escapes author text for it
        finalize=finalize,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["front_matter"] = front_matter
    env.filters["cell"] = table_cell
    env.filters["code"] = md_code
    env.filters["url"] = md_url
    env.filters["html"] = html_text
    return env


def render(corpus: Corpus, links: Links, templates: Path, root: Path | None = None) -> tuple[dict[SrcUri, str], list[Problem]]:
    """Every generated page, keyed by where it pretends to live in `docs/`, and template problems.

    A mistake in a template is reported like a content mistake: the template's file and line,
    no traceback (each template fails once, however many pages use it).
    """
    env = make_environment(templates)
    view = View(corpus, links)
    pages: dict[SrcUri, str] = {}
    problems: dict[str, Problem] = {}

    def put(src: SrcUri, template: str, **context: Any) -> None:
        if template in problems:
            return
        try:
            pages[src] = env.get_template(template).render(v=view, **context)
        except jinja2.TemplateError as err:
            problems[template] = template_problem(err, template, templates, root)

    def body(entity_id: EntityId) -> Markdown:
        return Markdown(links.bodies[entity_id].strip())

    for concept in corpus.concepts.values():
        put(entity_src(concept), "concept.md.j2", c=concept, body=body(concept.id))
    for question in corpus.questions.values():
        put(entity_src(question), "question.md.j2", q=question, body=body(question.id))
    for report in corpus.reports.values():
        put(entity_src(report), "report.md.j2", r=report, body=body(report.id))
    for task in corpus.coding.values():
        put(entity_src(task), "coding.md.j2", t=task, s=view.coding_sections(task), names=corpus.guide.coding.names)
    put(index_src("coding"), "coding_index.md.j2")
    for topic in corpus.taxonomy.topics:
        order = [corpus.concepts[c] for c in links.learning_order.get(topic.id, [])]
        put(topic_src(topic.id), "topic.md.j2", t=topic, concepts=order)
    for company in corpus.taxonomy.companies:
        put(company_src(company.id), "company.md.j2", co=company)
    for topic in corpus.taxonomy.topics:
        put(cheatsheet_src(topic.id), "cheatsheet.md.j2", t=topic)
    put(index_src("cheatsheets"), "cheatsheets.md.j2")
    put(index_src("topics"), "topics.md.j2")
    put(index_src("questions"), "questions.md.j2")
    put(index_src("reports"), "reports.md.j2")
    put(index_src("companies"), "companies.md.j2")
    put(index_src("stats"), "stats.md.j2")
    put(index_src("keywords"), "keywords.md.j2")
    put(index_src("practice"), "practice.md.j2")
    put(index_src("mock"), "mock.md.j2")
    put(index_src("map"), "map.md.j2")
    return pages, list(problems.values())


def template_problem(err: jinja2.TemplateError, template: str, templates: Path, root: Path | None) -> Problem:
    """Where a template went wrong: the syntax error's own line, or the template frame that raised."""
    name, line = getattr(err, "filename", None) or template, getattr(err, "lineno", None)
    if line is None:  # a runtime error: Jinja maps the traceback back onto template lines
        tb = err.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith(".j2"):
                name, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
            tb = tb.tb_next
    path = Path(name) if Path(name).is_absolute() else templates / name
    try:
        shown = path.relative_to(root).as_posix() if root else path.as_posix()
    except ValueError:
        shown = path.as_posix()
    message = getattr(err, "message", None) or str(err)
    return Problem(shown, line or 1, "template", message.splitlines()[0] if message else type(err).__name__)
