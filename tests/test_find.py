"""`make find` and `make check`'s warnings, in process: the scores find documents, field by field,
and the two warnings (a search word two notes claim, a new question that rewords an old one).
tests/test_cli.py runs the same commands whole, as an author types them."""
from __future__ import annotations

import pytest

from conftest import TAXONOMY, concept, question, valid_files, write_corpus
from guide.find import CLOSE, close_questions, find, warnings
from guide.load import load_content
from guide.validate import validate
from test_coding import coding


def corpus_of(tmp_path, files):
    taxonomy = TAXONOMY + "coding_kinds:\n  - id: numerics\n    title: 数值\n"
    write_corpus(tmp_path, files, taxonomy=taxonomy)
    corpus, problems = validate(load_content(tmp_path / "content", tmp_path, None))
    assert problems == []
    return corpus


@pytest.fixture
def corpus(tmp_path):
    files = valid_files()
    files["concepts/reward-over.md"] = concept("奖励模型过优化", extra="aliases: [过优化, Goodhart]\n")
    files["questions/q-two.md"] = question(extra="related: [reward-over]\n").replace("问题？", "RM 过优化了怎么办？")
    files["coding/clip.md"] = coding()
    return corpus_of(tmp_path, files)


def found(corpus, query, **kw):
    return [(f.kind, f.id, round(f.score, 3), f.matched) for f in find(corpus, query, **kw)]


def test_an_exact_alias_counts_twice_its_field_and_every_word_matched_adds_ten(corpus):
    # aliases: weight 3 x 1 of 1 word, x2 for being the whole alias, +10 for every word covered
    assert found(corpus, "Goodhart") == [("concept", "reward-over", 16.0, "aliases")]
    assert find(corpus, "goodhart")[0].title == "奖励模型过优化"


def test_the_best_field_counts_fully_and_the_others_a_tenth(corpus):
    # 过优化 = 过优 + 优化. The concept: aliases 3 x 2/2 x 2 = 6 best, title 4 x 2/2 = 4 as a tenth.
    # The question: its text (title) 4 x 2/2, nothing else.
    assert found(corpus, "过优化") == [("concept", "reward-over", 16.4, "aliases"), ("question", "q-two", 14.0, "title")]


def test_an_id_matches_whole_and_by_its_parts(corpus):
    # reward-over = reward + over + rewardover: id 5 x 3/3, x2 for the exact id, +10
    assert found(corpus, "reward-over") == [("concept", "reward-over", 20.0, "id")]
    # 'q' and 'two' are parts of other ids: 5 x 1/3 each; equal scores order by kind, then id
    assert found(corpus, "q-two") == [("question", "q-two", 20.0, "id"), ("question", "q-one", 1.667, "id"),
                                      ("report", "r-two", 1.667, "id")]


def test_partial_matches_rank_by_the_share_of_words_and_get_no_bonus(corpus):
    assert found(corpus, "阿尔法 贝塔") == [("concept", "alpha", 2.667, "title"), ("concept", "beta", 1.333, "title")]


def test_every_kind_is_searched_in_its_own_fields(corpus):
    # a coding task by its English name (weight 3, x2 whole) and its alias; a report by its company's name (text, 2)
    # clip: its id 5 x2 (whole) best; its English name 3 x2 and its title 4 as a tenth
    assert found(corpus, "clip") == [("coding", "clip", 21.0, "id")]
    # 裁剪函数: the alias 3 x 3/3 x2; the summary holds one of its three bigrams, 1/3 as a tenth
    assert found(corpus, "裁剪函数") == [("coding", "clip", 16.033, "aliases")]
    assert found(corpus, "某公司") == [("report", "r-one", 14.0, "text"), ("report", "r-two", 14.0, "text")]
    # a summary is the lightest field: 1 x 1/1, not whole ("概要。" has its full stop)
    assert found(corpus, "概要")[:2] == [("concept", "alpha", 11.0, "summary"), ("concept", "beta", 11.0, "summary")]


def test_the_limit_and_nothing_found(corpus):
    assert len(find(corpus, "概要")) == 5 and len(find(corpus, "概要", limit=2)) == 2
    assert find(corpus, "量子纠缠") == [] and find(corpus, "。，") == []


REWORD = "PPO 的目标里为什么要取 min？"


def pair(tmp_path, extra_files=None):
    files = valid_files()
    files["questions/ppo-why-min.md"] = question().replace("问题？", "PPO/GRPO 的目标为什么要对 rA 和 clip(r)A 取 min？").replace(
        "一句话答案。", "取 min 得到未裁剪目标的悲观下界：只在改得已经够多的方向上截断梯度。")
    files["questions/q-two.md"] = question().replace("问题？", "KL 散度有哪几种估计？").replace("一句话答案。", "k1、k2、k3 三种。")
    files["questions/min-again.md"] = question().replace("问题？", REWORD).replace("一句话答案。", "取 min 得到裁剪目标的悲观下界。")
    files.update(extra_files or {})
    return corpus_of(tmp_path, files)


def test_close_questions_are_the_nearest_first_and_only_on_the_same_concept(tmp_path):
    corpus = pair(tmp_path, {"questions/on-beta.md": question("beta").replace("问题？", "PPO 为什么取 min？")})
    near = close_questions(corpus, REWORD, exclude="min-again")
    assert [q.id for _, q in near][:2] == ["on-beta", "ppo-why-min"] and near[0][0] > near[1][0] > CLOSE
    assert all(score > 0 for score, _ in near) and "min-again" not in [q.id for _, q in near]
    assert [q.id for _, q in close_questions(corpus, REWORD, primary="beta")] == ["on-beta"]
    assert len(close_questions(corpus, REWORD, limit=1)) == 1
    assert close_questions(corpus, "量子纠缠") == []


def test_a_reworded_question_is_warned_about_once_on_the_new_file_or_the_later_path(tmp_path):
    corpus = pair(tmp_path)
    lines = {"content/questions/min-again.md": {("text",): 2}}
    tail = "which tests the same concept; if it is, merge them, else word them so the difference shows"
    on_new = ["content/questions/min-again.md:2: text: warning: perhaps the same question as content/questions/ppo-why-min.md "
              f"(“PPO/GRPO 的目标为什么要对 rA 和 clip(r)A 取 min？”), {tail}"]
    on_later = ["content/questions/ppo-why-min.md:1: text: warning: perhaps the same question as content/questions/min-again.md "
                f"(“{REWORD}”), {tail}"]
    assert [str(p) for p in warnings(corpus, lines, new={"content/questions/min-again.md"})] == on_new
    # no file known new: once per pair, on the later path (line 1 where the field's line is not known)
    assert [str(p) for p in warnings(corpus, lines)] == on_later
    assert [str(p) for p in warnings(corpus, lines, new={"content/questions/ppo-why-min.md"})] == on_later
    assert warnings(corpus, lines, new={"content/questions/q-two.md"}) == []


def test_an_alias_that_is_another_notes_name_is_warned_at_its_line(tmp_path):
    files = valid_files()
    files["concepts/beta.md"] = concept("贝塔", extra="prerequisites: [alpha]\naliases: [B, Alpha, 阿 尔 法, Concept]\n")
    corpus = corpus_of(tmp_path, files)
    lines = {"content/concepts/beta.md": {("aliases",): 8, ("aliases", 1): 9, ("aliases", 2): 10}}
    assert [str(p) for p in warnings(corpus, lines)] == [
        "content/concepts/beta.md:8: aliases: warning: 'Concept' is the English name of content/concepts/alpha.md; "
        "as an alias here it leads readers away from that note: drop it, or link there",
        "content/concepts/beta.md:9: aliases: warning: 'Alpha' is the id of content/concepts/alpha.md; "
        "as an alias here it leads readers away from that note: drop it, or link there",
        "content/concepts/beta.md:10: aliases: warning: '阿 尔 法' is the title of content/concepts/alpha.md; "
        "as an alias here it leads readers away from that note: drop it, or link there",
    ]  # 'B' is no note's name; 'Concept', beta's own English name too, is alpha's: warned, at the list's line


def test_a_question_as_close_to_two_others_is_not_warned_about(tmp_path):
    # The nearest must be at least MARGIN (1.5) times as close as the runner-up: two equally near
    # questions mean the new one only shares the topic's words.
    twin = question().replace("问题？", "PPO/GRPO 的目标为什么要对 rA 和 clip(r)A 取 min？").replace(
        "一句话答案。", "取 min 得到未裁剪目标的悲观下界：只在改得已经够多的方向上截断梯度。")
    corpus = pair(tmp_path, {"questions/ppo-twin.md": twin})
    assert warnings(corpus, new={"content/questions/min-again.md"}) == []
    near = close_questions(corpus, REWORD, "取 min 得到裁剪目标的悲观下界。", "alpha", exclude="min-again")
    assert near[0][0] == pytest.approx(near[1][0]) and near[0][0] >= CLOSE
