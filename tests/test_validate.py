"""One test per class of bad input, each asserting the exact message an author sees."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CONCEPT_BODY, TAXONOMY, concept, question, report, valid_files, write_corpus
from guide.errors import ContentError
from guide.pipeline import build

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def problems(tmp_path: Path, changes: dict[str, str | bytes | None], taxonomy: str | None = None) -> list[str]:
    files = valid_files()
    for path, text in changes.items():
        if text is None:
            files.pop(path, None)
        else:
            files[path] = text
    kwargs = {} if taxonomy is None else {"taxonomy": taxonomy}
    write_corpus(tmp_path, files, **kwargs)
    with pytest.raises(ContentError) as err:
        build(tmp_path, templates=TEMPLATES)
    return [str(p) for p in err.value.problems]


def test_valid_corpus_builds(tmp_path):
    write_corpus(tmp_path, valid_files())
    built = build(tmp_path, templates=TEMPLATES)
    assert set(built.corpus.concepts) == {"alpha", "beta"}
    assert "concepts/alpha.md" in built.pages


CASES = {
    "broken YAML": (
        {"concepts/alpha.md": "---\ntitle: [unclosed\nen: x\n---\n"},
        ["content/concepts/alpha.md:2: front matter is not valid YAML: the bracket [ opened on this line is never closed on it; "
         "add the closing ]"],
    ),
    "missing field": (
        {"concepts/alpha.md": "---\ntitle: 阿尔法\nen: Alpha\ntopic: basics\ndifficulty: basic\n---\n" + CONCEPT_BODY},
        ["content/concepts/alpha.md:1: summary: required field is missing"],
    ),
    "empty required field": (
        {"questions/q-one.md": question(extra="").replace("brief: 一句话答案。", "brief: ''")},
        ["content/questions/q-one.md:3: brief: is empty; a value is required"],
    ),
    "unknown field with suggestion": (
        {"concepts/alpha.md": concept(extra="prerequisits: []\n")},
        ["content/concepts/alpha.md:7: prerequisits: unknown field (did you mean 'prerequisites'?); allowed: "
         "title, en, aliases, topic, tags, prerequisites, related, difficulty, summary, references"],
    ),
    "mistyped field": (
        {"concepts/alpha.md": concept(extra="aliases: 7\n")},
        ['content/concepts/alpha.md:7: aliases: expected a list of text, got a number (7); write it as a list: aliases: ["7"]'],
    ),
    "text where a list is expected": (
        {"concepts/beta.md": concept("贝塔", extra="prerequisites: alpha\n")},
        ["content/concepts/beta.md:7: prerequisites: expected a list, got text; write it as [alpha]"],
    ),
    "unknown topic": (
        {"concepts/alpha.md": concept(topic="basic")},
        ["content/concepts/alpha.md:4: topic: unknown topic 'basic' (did you mean 'basics'?); known: basics, advanced-topic"],
    ),
    "unknown company": (
        {"reports/r-one.md": report(company="acmee")},
        ["content/reports/r-one.md:3: company: unknown company 'acmee' (did you mean 'acme'?); known: acme, initech; "
         "to add one, add an entry under companies: in content/taxonomy.yml with its id, name (中文), en and teams"],
    ),
    "a new company": (
        {"reports/r-one.md": report(company="meituan")},
        ["content/reports/r-one.md:3: company: unknown company 'meituan'; known: acme, initech; "
         "to add one, add an entry under companies: in content/taxonomy.yml with its id, name (中文), en and teams"],
    ),
    "a concept listed as a question": (
        {"reports/r-one.md": report(rounds="  - name: 一面\n    questions: [q-one, alpha]\n")},
        ["content/reports/r-one.md:7: rounds.questions: 'alpha' is a concept: list it under topics"],
    ),
    "a question listed as a topic": (
        {"reports/r-one.md": report(rounds="  - name: 一面\n    topics: [q-one]\n")},
        ["content/reports/r-one.md:7: rounds.topics: 'q-one' is a question: list it under questions"],
    ),
    "a question as a prerequisite": (
        {"concepts/beta.md": concept("贝塔", extra="prerequisites: [q-one]\n")},
        ["content/concepts/beta.md:7: prerequisites: 'q-one' is a question, not a concept"],
    ),
    "bad indentation inside rounds": (
        {"reports/r-one.md": report(rounds="  - name: 一面\n    questions: [q-one]\n   topics: [alpha]\n")},
        ["content/reports/r-one.md:8: rounds: did not find expected '-' indicator; rounds is a list with one entry per round: "
         "'  - name: 一面' (two spaces, a dash), then its fields indented two more spaces: '    questions: [ppo-clip-why]', "
         "'    topics: [gae]', '    other: [手撕 LRU]'"],
    ),
    "unknown team": (
        {"reports/r-one.md": report(extra="team: 不存在的组\n")},
        ["content/reports/r-one.md:5: team: unknown team '不存在的组' for acme; known: none yet; "
         "to add one, list it under teams: of acme in content/taxonomy.yml"],
    ),
    "date as free text": (
        {"reports/r-one.md": report(extra="date: 上周\n")},
        ["content/reports/r-one.md:5: date: expected the interview's date as YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2025-03), got '上周'"],
    ),
    "the old concepts field of a question": (
        {"questions/q-one.md": question().replace("primary: alpha", "concepts: [alpha]")},
        ["content/questions/q-one.md:4: concepts: unknown field (write the concept the question tests as primary: <id> and "
         "the others it draws on as related: [ids]); allowed: text, brief, aliases, primary, related, difficulty, follow_ups"],
    ),
    "unknown follow-up": (
        {"questions/q-one.md": question(extra="follow_ups: [q-on]\n"), "questions/q-two.md": question()},
        ["content/questions/q-one.md:6: follow_ups: unknown question 'q-on' (did you mean 'q-one'?)"],
    ),
    "a concept as a follow-up": (
        {"questions/q-one.md": question(extra="follow_ups: [alpha]\n")},
        ["content/questions/q-one.md:6: follow_ups: 'alpha' is a concept, not a question"],
    ),
    "a question following itself": (
        {"questions/q-one.md": question(extra="follow_ups: [q-one]\n")},
        ["content/questions/q-one.md:6: follow_ups: 'q-one' refers to itself"],
    ),
    "primary repeated under related": (
        {"questions/q-one.md": question(extra="related: [beta, alpha]\n")},
        ["content/questions/q-one.md:6: related: 'alpha' is the primary concept; list only the others under related"],
    ),
    "unknown prerequisite": (
        {"concepts/beta.md": concept("贝塔", extra="prerequisites: [alpah]\n")},
        ["content/concepts/beta.md:7: prerequisites: unknown concept 'alpah' (did you mean 'alpha'?)"],
    ),
    "unknown question in a report round": (
        {"reports/r-one.md": report(rounds="  - name: 一面\n    questions: [q-one, q-two]\n")},
        ["content/reports/r-one.md:7: rounds.questions: unknown question 'q-two' (did you mean 'q-one'?)"],
    ),
    "duplicate id across kinds": (
        {"questions/alpha.md": question()},
        ["content/questions/alpha.md:1: duplicate id 'alpha': already used by content/concepts/alpha.md"],
    ),
    "self-reference": (
        {"concepts/alpha.md": concept(extra="related: [alpha]\n")},
        ["content/concepts/alpha.md:7: related: 'alpha' refers to itself"],
    ),
    "prerequisite cycle": (
        {"concepts/alpha.md": concept(extra="prerequisites: [beta]\n")},
        ["content/concepts/beta.md:7: prerequisites: cycle: alpha → beta → alpha"],
    ),
    "duplicate of a duplicate": (
        {"reports/r-three.md": report(extra="duplicate_of: r-two\n")},
        ["content/reports/r-three.md:5: duplicate_of: 'r-two' is itself a duplicate; point to its original 'r-one'"],
    ),
    "non-UTF-8": (
        {"concepts/alpha.md": concept().encode("utf-8").replace("概要".encode(), "概要".encode("gbk"))},
        ["content/concepts/alpha.md:6: not valid UTF-8 (byte 0xb8); save the file as UTF-8"],
    ),
    "empty file": (
        {"concepts/alpha.md": ""},
        ["content/concepts/alpha.md:1: the file is empty; start it with front matter between '---' lines"],
    ),
    "no front matter": (
        {"concepts/alpha.md": "# 阿尔法\n\n正文。\n"},
        ["content/concepts/alpha.md:1: no front matter: the file must start with a '---' line, YAML fields, and a closing '---' line"],
    ),
    "duplicate key": (
        {"concepts/alpha.md": concept(extra="title: 又一个\n")},
        ["content/concepts/alpha.md:7: title: this key appears twice (first on line 2); keep one"],
    ),
    "bad file name": (
        {"concepts/Alpha Two.md": concept()},
        ["content/concepts/Alpha Two.md:1: file name 'Alpha Two' is not a valid id: use lower-case a-z, 0-9 and '-' (it becomes the page URL)"],
    ),
    "missing section": (
        {"concepts/alpha.md": concept(body=CONCEPT_BODY.replace("## 易错点\n\n- 误解。\n\n", ""))},
        ["content/concepts/alpha.md:8: sections: missing section '## 易错点'"],
    ),
    "question without answer": (
        {"questions/q-one.md": question(body="\n")},
        ["content/questions/q-one.md:7: answer: the answer is missing: write it below the front matter"],
    ),
    "unknown wikilink": (
        {"concepts/beta.md": concept("贝塔", body=CONCEPT_BODY.replace("直觉。", "见 [[alpah]]。"))},
        ["content/concepts/beta.md:14: link: unknown id 'alpah' in [[alpah]] (nearest: alpha)"],
    ),
    "unknown anchor": (
        {"concepts/beta.md": concept("贝塔", body=CONCEPT_BODY.replace("直觉。", "见 [[alpha#面试怎么答]]。"))},
        ["content/concepts/beta.md:14: link: unknown anchor '#面试怎么答' in page 'alpha' (nearest: 面试怎么问)"],
    ),
    "pipe inside math in a table": (
        {"questions/q-one.md": question(body="| a | b |\n|---|---|\n| $p(y|x)$ | ok |\n")},
        ["content/questions/q-one.md:9: table: '|' inside $p(y|x)$ splits the table cell; write \\lvert … \\rvert or \\mid"],
    ),
    "display formulas without a blank line between them": (
        {"questions/q-one.md": question(body="答案。\n\n$$\na=1\n$$\n$$\nb=2\n$$\n")},
        ["content/questions/q-one.md:12: math: a display formula starts right after another one ends; "
         "put a blank line between them (otherwise both are read as one formula and cannot be typeset)"],
    ),
    "too few 速查 bullets for a sheet": (
        {"concepts/alpha.md": concept(body=CONCEPT_BODY.replace("- 第三条。\n", ""))},
        ["content/concepts/alpha.md:24: sections: '## 速查' needs 3 to 8 top-level bullets (it feeds the cheat sheet), found 2"],
    ),
    "too many 速查 bullets for a sheet": (
        {"concepts/alpha.md": concept(body=CONCEPT_BODY + "".join(f"- 第 {n} 条。\n" for n in range(4, 10)))},
        ["content/concepts/alpha.md:24: sections: '## 速查' needs 3 to 8 top-level bullets (it feeds the cheat sheet), found 9"],
    ),
    "a synonym group of one word": (
        {"synonyms.yml": "- [优势函数, advantage]\n- [熵]\n"},
        ["content/synonyms.yml:2: synonyms: a group needs at least two different words"],
    ),
    "a word in two synonym groups": (
        {"synonyms.yml": "- [优势函数, advantage]\n- [价值, Advantage]\n"},
        ["content/synonyms.yml:2: synonyms: 'Advantage' is already in the group on line 1; a word belongs to one group"],
    ),
    "a synonym group that is not a list": (
        {"synonyms.yml": "- [优势函数, advantage]\n- 熵: entropy\n"},
        ["content/synonyms.yml:2: synonyms: each group is a list of words, as [优势函数, advantage]; got a mapping"],
    ),
    "synonyms that are not a list of groups": (
        {"synonyms.yml": "优势函数: advantage\n"},
        ["content/synonyms.yml:1: the synonyms file must be a YAML list of groups: - [优势函数, advantage]"],
    ),
    "yes as a question's aliases": (
        {"questions/q-one.md": question(extra="aliases: yes\n")},
        ["content/questions/q-one.md:6: aliases: expected a list of text, got yes, which YAML reads as true (yes/no, on/off, "
         'true/false); write it as a list: aliases: ["yes"]'],
    ),
    "script tag": (
        {"questions/q-one.md": question(body="答案。\n\n<script>alert(1)</script>\n")},
        ["content/questions/q-one.md:9: html: raw HTML <script> is not allowed in content; write Markdown "
         "(allowed tags: abbr, br, kbd, mark, s, small, span, sub, sup, u)"],
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_bad_input_is_reported_exactly(tmp_path, case):
    changes, expected = CASES[case]
    assert problems(tmp_path, changes) == expected


def test_every_problem_in_one_run(tmp_path):
    found = problems(tmp_path, {
        "concepts/alpha.md": concept(topic="nope"),
        "concepts/beta.md": concept("贝塔", extra="prerequisites: [gamma]\n"),
        "questions/q-one.md": question("delta"),
    })
    assert len(found) == 3
    assert [f.split(":")[0] for f in found] == ["content/concepts/alpha.md", "content/concepts/beta.md", "content/questions/q-one.md"]


def test_missing_taxonomy_is_reported_once(tmp_path):
    write_corpus(tmp_path, valid_files(), taxonomy=None)
    with pytest.raises(ContentError) as err:
        build(tmp_path, templates=TEMPLATES)
    assert [str(p) for p in err.value.problems] == [
        "content/taxonomy.yml:1: missing: the taxonomy file lists topics, companies and difficulties"
    ]


def test_an_unclosed_bracket_after_a_blank_line_is_reported_at_its_line(tmp_path):
    """A blank line before the mistake once ended in an IndexError instead of this line."""
    text = concept("阿尔法", extra="\naliases: [a, b\n")
    assert problems(tmp_path, {"concepts/alpha.md": text}) == [
        "content/concepts/alpha.md:8: front matter is not valid YAML: the bracket [ opened on this line is never closed on it; "
        "add the closing ]"]


def test_bom_and_crlf_are_valid(tmp_path):
    text = "\ufeff" + concept("阿尔法").replace("\n", "\r\n")
    write_corpus(tmp_path, {**valid_files(), "concepts/alpha.md": text})
    built = build(tmp_path, templates=TEMPLATES)
    assert built.corpus.concepts["alpha"].title == "阿尔法"
    assert "\r" not in built.pages["concepts/alpha.md"]


def test_a_sheet_names_only_its_own_topics_concepts(tmp_path):
    taxonomy = TAXONOMY.replace("    en: Basics\n", "    en: Basics\n    sheet: [alpha, gamma, delta]\n", 1)
    changes = {"concepts/delta.md": concept("德尔塔", topic="advanced-topic")}
    assert problems(tmp_path, changes, taxonomy) == [
        "content/taxonomy.yml:5: topics.sheet: 'delta' belongs to topic 'advanced-topic'; a sheet carries only its own topic's concepts",
        "content/taxonomy.yml:5: topics.sheet: unknown concept 'gamma'",
    ]


def test_a_sheet_leaves_out_what_its_topic_does_not_list_and_names_it(tmp_path):
    taxonomy = TAXONOMY.replace("    en: Basics\n", "    en: Basics\n    sheet: [beta]\n", 1)
    write_corpus(tmp_path, valid_files(), taxonomy=taxonomy)
    sheet = build(tmp_path, templates=TEMPLATES).pages["cheatsheets/basics.md"]
    assert "## [贝塔](/concepts/beta.md)" in sheet and "## [阿尔法]" not in sheet
    assert "本表未收（速查见各自笔记）：[阿尔法](/concepts/alpha.md)。" in sheet


# --- no input ends in a traceback -------------------------------------------------------------

YAML_VALUES = ["~", "", "yes", "off", "2025", "-3.5", ".nan", ".inf", "2025-13-40", "2025-01-01T10:00:00", "[]", "{}",
               "[a, [b]]", "{a: 1}", "[~]", "[yes, 2]", "!!binary aGVsbG8=", "!!set {a, b}", "!!python/object:os.system x",
               "!!int x", "!!float y", "!!timestamp z", "&a x", "*a", '"unclosed', "'x", "[a, b", "{a: 1", "0x1F", "-",
               "|\n  two\n  lines", "<<: {a: 1}", "? [a]\n: b", "\t1", "'<script>alert(1)</script>'"]
"""YAML an author could write where a field's value goes: every type, tags, anchors, broken quoting."""


def with_field(text: str, name: str, value: str) -> str:
    """`text` (front matter first) with field `name` set to `value` (its old value and any indented
    continuation lines replaced), or added when absent."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.startswith(name + ":")), None)
    if at is None:
        lines.insert(1, f"{name}: {value}")
    else:
        end = at + 1
        while end < len(lines) and lines[end].startswith(" "):
            end += 1
        lines[at:end] = [f"{name}: {value}"]
    return "\n".join(lines)


FIELDS = {
    "concepts/alpha.md": ["title", "en", "aliases", "topic", "tags", "prerequisites", "related", "difficulty", "summary",
                          "references"],
    "questions/q-one.md": ["text", "brief", "primary", "related", "difficulty", "follow_ups"],
    "reports/r-one.md": ["title", "kind", "company", "team", "role", "date", "source", "duplicate_of", "summary", "rounds"],
}


@pytest.mark.heavy
@pytest.mark.parametrize("path", list(FIELDS))
def test_no_yaml_value_in_any_field_ends_in_a_traceback(tmp_path, path):
    """Every field of every kind, set to every shape of YAML value: the build succeeds or reports
    problems, at least one of them in the file that was changed; no other exception escapes."""
    for n, (name, value) in enumerate((name, value) for name in FIELDS[path] for value in YAML_VALUES):
        files = valid_files()
        files[path] = with_field(files[path], name, value)
        root = write_corpus(tmp_path / str(n), files)
        try:
            build(root, templates=TEMPLATES, run_snippets=False)
        except ContentError as err:
            assert any(p.path == f"content/{path}" for p in err.problems), (name, value, err.problems)


@pytest.mark.heavy
def test_no_yaml_value_in_the_taxonomy_ends_in_a_traceback(tmp_path):
    for n, (old, value) in enumerate((old, value) for old in ("title: 基础", "name: 某公司", "id: basic", "en: Basics")
                                     for value in YAML_VALUES):
        key = old.split(":")[0]
        taxonomy = TAXONOMY.replace(old, f"{key}: {value}", 1)
        root = write_corpus(tmp_path / str(n), valid_files(), taxonomy=taxonomy)
        try:
            build(root, templates=TEMPLATES, run_snippets=False)
        except ContentError as err:
            assert err.problems, (old, value)
