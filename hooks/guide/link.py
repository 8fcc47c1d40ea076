"""Stage 3: resolve every `[[link]]` against the table of all ids, then invert.

Order matters and is the point of this module: first the table of every
id (with its page and anchors), then each body's links resolved against it,
then the relations inverted into backlinks and counts.  Every step is a
single pass over its input, linear in the number of links.
"""
from __future__ import annotations

import heapq
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .errors import Problem, nearest_ids
from .model import CodingTask, Concept, Corpus, EntityId, Question, Report, SrcUri
from .safe import md_text
from .text import guard_math, headings, line_at, mask
from .urls import entity_src, heading_anchor, md_link

WIKILINK = re.compile(r"\[\[\s*([^\]\|#\n]*?)\s*(?:#\s*([^\]\|\n]*?)\s*)?(?:\|\s*([^\]\n]*?)\s*)?\]\]")

@dataclass(frozen=True)
class Target:
    """What a `[[link]]` can point to."""

    src: SrcUri
    label: str
    anchors: frozenset[str]


@dataclass
class Links:
    """Everything derived from the corpus; never written by hand."""

    table: dict[str, Target]
    bodies: dict[EntityId, str]
    """Each entity's Markdown body with `[[links]]` resolved."""
    mentions: dict[EntityId, set[EntityId]] = field(default_factory=lambda: defaultdict(set))
    """Outgoing `[[links]]` per entity."""
    mentioned_by: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    dependents: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Concepts that list this concept as a prerequisite ("builds on this")."""
    related: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Declared related concepts plus those that declare this one (symmetric)."""
    questions_of: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Questions that test each concept (it is their primary concept)."""
    drawn_on_by: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Questions whose answers draw on each concept without testing it (it is among their related)."""
    asked_in: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Reports (duplicates included) whose rounds ask each question."""
    reports_of: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Original reports that ask about each concept, by a question that tests it (its primary concept)
    or under a round's topics; duplicates fold into their original. This is 考频."""
    duplicates: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    learning_order: dict[str, list[EntityId]] = field(default_factory=dict)
    """Each topic's concepts, prerequisites first."""
    leads_from: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Questions whose follow-ups include each question: where an interviewer comes from to ask it."""
    coding_of: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Coding tasks that exercise each concept."""
    coding_asked_in: dict[EntityId, list[EntityId]] = field(default_factory=dict)
    """Reports (duplicates included) whose rounds ask for each coding task."""


def original(report: Report) -> EntityId:
    """The report a duplicate stands for; duplicates count once, as their original."""
    return report.duplicate_of or report.id


def link(corpus: Corpus, unreadable: frozenset[str] = frozenset()) -> tuple[Links, list[Problem]]:
    """Resolve links in every body and derive backlinks, counts and learning order.

    Links to `unreadable` ids (files that could not be read) are not reported: that file's own
    problem is the one to fix, and every link to it would otherwise point away from it."""
    table = build_table(corpus)
    problems: list[Problem] = []
    links = Links(table=table, bodies={})
    for entity in entities(corpus):
        text, targets, found = resolve(entity.body, entity.loc.path, entity.body_line, table, unreadable)
        links.bodies[entity.id] = guard_math(text)
        links.mentions[entity.id] = {EntityId(t) for t in targets if t != entity.id}
        problems.extend(found)
    derive(corpus, links)
    return links, problems


def entities(corpus: Corpus) -> list[Concept | Question | Report | CodingTask]:
    """Every entity with a page and a body, by kind then file name."""
    return [*corpus.concepts.values(), *corpus.questions.values(), *corpus.reports.values(), *corpus.coding.values()]


KIND_NAMES = {Concept: "concept", Question: "question", Report: "report", CodingTask: "coding"}


def build_table(corpus: Corpus) -> dict[str, Target]:
    """Every entity's page, label and anchors: its own headings and those its page adds (guide.yml)."""
    table: dict[str, Target] = {}
    added = {kind: [heading_anchor(title) for title in k.headings.values()] for kind, k in corpus.guide.kinds.items()}
    for entity in entities(corpus):
        anchors = {h.anchor for h in headings(entity.body)}
        anchors.update(added[KIND_NAMES[type(entity)]])
        table[entity.id] = Target(entity_src(entity), entity.label, frozenset(anchors))
    return table


def resolve(text: str, path: str, first_line: int, table: dict[str, Target],
            unreadable: frozenset[str] = frozenset()) -> tuple[str, list[str], list[Problem]]:
    """Replace `[[id]]`, `[[id|text]]` and `[[id#anchor]]` outside code and math.

    Returns the new text, the ids linked to, and a problem per unknown id or anchor.
    """
    masked = mask(text)
    out: list[str] = []
    targets: list[str] = []
    problems: list[Problem] = []
    last = 0
    for match in WIKILINK.finditer(masked):
        target_id, anchor, label = (text[match.start(i) : match.end(i)] if match.group(i) is not None else None for i in (1, 2, 3))
        line = first_line + line_at(masked, match.start())
        target = table.get(target_id or "")
        if target is None and target_id in unreadable:
            continue  # reported once, as the file that could not be read
        if target is None:
            near = nearest_ids(target_id or "", table)
            hint = f" (nearest: {', '.join(near)})" if near else ""
            problems.append(Problem(path, line, "link", f"unknown id '{target_id}' in [[{target_id}]]{hint}"))
            continue
        if anchor and anchor not in target.anchors:
            near = nearest_ids(anchor, target.anchors)
            hint = f" (nearest: {', '.join(near)})" if near else f" (anchors: {', '.join(sorted(target.anchors))})"
            problems.append(Problem(path, line, "link", f"unknown anchor '#{anchor}' in page '{target_id}'{hint}"))
            continue
        targets.append(target_id)
        shown = md_text(label or target.label)  # a title or a label: text, never markup
        out.append(text[last : match.start()])
        out.append(f"[{shown}]({md_link(target.src, anchor or '')})")
        last = match.end()
    out.append(text[last:])
    return "".join(out), targets, problems


def derive(corpus: Corpus, links: Links) -> None:
    """Invert the forward relations; one pass over each kind of edge."""
    concept_ids = list(corpus.concepts)
    dependents: dict[EntityId, list[EntityId]] = {c: [] for c in concept_ids}
    related: dict[EntityId, dict[EntityId, None]] = {c: {} for c in concept_ids}
    for concept in corpus.concepts.values():
        for pre in concept.prerequisites:
            if pre in dependents:
                dependents[pre].append(concept.id)
        for other in concept.related:
            if other in related:
                related[concept.id][other] = None
                related[other][concept.id] = None
    links.dependents = dependents
    links.related = {c: list(r) for c, r in related.items()}

    questions_of: dict[EntityId, list[EntityId]] = {c: [] for c in concept_ids}
    drawn_on_by: dict[EntityId, list[EntityId]] = {c: [] for c in concept_ids}
    for question in corpus.questions.values():
        if question.primary in questions_of:
            questions_of[question.primary].append(question.id)
        for concept_id in question.related:
            if concept_id in drawn_on_by:
                drawn_on_by[concept_id].append(question.id)
    links.questions_of = questions_of
    links.drawn_on_by = drawn_on_by
    leads_from: dict[EntityId, list[EntityId]] = {q: [] for q in corpus.questions}
    for question in corpus.questions.values():
        for nxt in question.follow_ups:
            if nxt in leads_from and question.id not in leads_from[nxt]:
                leads_from[nxt].append(question.id)
    links.leads_from = leads_from

    asked_in: dict[EntityId, list[EntityId]] = {q: [] for q in corpus.questions}
    reached: dict[EntityId, dict[EntityId, None]] = {c: {} for c in concept_ids}
    duplicates: dict[EntityId, list[EntityId]] = defaultdict(list)
    for report in corpus.reports.values():
        group = original(report)
        if report.duplicate_of:
            duplicates[group].append(report.id)
        for round_ in report.rounds:
            for question_id in round_.questions:
                if question_id in asked_in and report.id not in asked_in[question_id]:
                    asked_in[question_id].append(report.id)
                    primary = corpus.questions[question_id].primary
                    if primary in reached:  # related concepts were not asked about: not counted
                        reached[primary][group] = None
            for concept_id in round_.topics:
                if concept_id in reached:
                    reached[concept_id][group] = None
    links.asked_in = asked_in
    links.reports_of = {c: list(groups) for c, groups in reached.items()}
    coding_of: dict[EntityId, list[EntityId]] = {c: [] for c in concept_ids}
    for task in corpus.coding.values():
        for concept_id in task.concepts:
            if concept_id in coding_of:
                coding_of[concept_id].append(task.id)
    links.coding_of = coding_of
    coding_asked_in: dict[EntityId, list[EntityId]] = {t: [] for t in corpus.coding}
    for report in corpus.reports.values():
        for round_ in report.rounds:
            for task_id in round_.coding:
                if task_id in coding_asked_in and report.id not in coding_asked_in[task_id]:
                    coding_asked_in[task_id].append(report.id)
    links.coding_asked_in = coding_asked_in
    links.duplicates = dict(duplicates)

    mentioned_by: dict[EntityId, list[EntityId]] = defaultdict(list)
    for source, targets in links.mentions.items():
        for target in sorted(targets):
            mentioned_by[target].append(source)
    links.mentioned_by = dict(mentioned_by)
    links.learning_order = learning_order(corpus)


def learning_order(corpus: Corpus) -> dict[str, list[EntityId]]:
    """Topological order of prerequisites within each topic; ties by difficulty, then id."""
    rank = {d.id: d.rank for d in corpus.taxonomy.difficulties}
    order: dict[str, list[EntityId]] = {}
    by_topic: dict[str, list[Concept]] = defaultdict(list)
    for concept in corpus.concepts.values():
        by_topic[concept.topic].append(concept)
    for topic, members in by_topic.items():
        inside = {c.id for c in members}
        waiting = {c.id: sum(1 for p in c.prerequisites if p in inside and p != c.id) for c in members}
        after: dict[str, list[Concept]] = defaultdict(list)
        for c in members:
            for p in c.prerequisites:
                if p in inside and p != c.id:
                    after[p].append(c)
        heap = [(rank.get(c.difficulty, 0), c.id) for c in members if waiting[c.id] == 0]
        heapq.heapify(heap)
        result: list[EntityId] = []
        while heap:
            _, cid = heapq.heappop(heap)
            result.append(EntityId(cid))
            for nxt in after[cid]:
                waiting[nxt.id] -= 1
                if waiting[nxt.id] == 0:
                    heapq.heappush(heap, (rank.get(nxt.difficulty, 0), nxt.id))
        # Concepts left over sit on a cycle, which validate already reported; keep them visible.
        placed = set(result)
        result.extend(sorted(EntityId(c) for c in inside if c not in placed))
        order[topic] = result
    return order


def company_counts(corpus: Corpus, links: Links, concept_id: EntityId) -> Counter[str]:
    """How many distinct reports of each company reach a concept."""
    counts: Counter[str] = Counter()
    for report_id in links.reports_of.get(concept_id, ()):
        company = corpus.reports[report_id].company
        if company:
            counts[company] += 1
    return counts
