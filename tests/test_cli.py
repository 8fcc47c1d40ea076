"""Author commands: scaffolds have every field and are rejected until filled in; `check` lists problems with file:line."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, concept, question, valid_files, write_corpus

TEMPLATES = ROOT / "templates"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "guide", "--root", str(root), *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT / "hooks"), "PATH": "/usr/bin:/bin"})


FILLED = {
    "中文标题，如 PPO 裁剪目标": "新概念", "英文名，如 PPO clipped objective": "A new idea",
    "读者会搜的词——中文名、英文名、缩写、常见说法": "新想法", "专题 id，可选 basics / advanced-topic": "basics",
    "basic / advanced": "basic", "一句话说清这个概念，显示在页首和搜索结果里": "一句话。", "论文或文章的标题": "A paper",
    "年份": "2024", "arXiv id 如 1707.06347；没有就把这一行换成 url": "'1707.06347'",
    "这道题考查的概念 id；make find Q=关键词 可以查": "alpha",
    "公司 id，可选 acme / initech；新公司先加到 content/taxonomy.yml 的 companies": "acme",
    "面经的出处 URL": "https://example.org/post", "链向题目（双方括号包住题目 id）并写出面试官的问法": "[[q-one]]：怎么问。",
}


def test_an_untouched_scaffold_is_rejected_at_every_placeholder_and_passes_once_filled(tmp_path):
    write_corpus(tmp_path, valid_files())
    (tmp_path / "templates").symlink_to(TEMPLATES)
    (tmp_path / "docs").mkdir()
    for kind, entity_id in (("concept", "new-idea"), ("question", "new-question"), ("report", "new-report")):
        made = run(tmp_path, "new", kind, entity_id)
        assert made.returncode == 0, made.stderr
        assert (tmp_path / "content" / f"{kind}s" / f"{entity_id}.md").is_file()
    checked = run(tmp_path, "check")
    assert checked.returncode == 1
    lines = checked.stderr.splitlines()
    assert lines[-1] == "29 problem(s)"
    assert all("still the scaffold's placeholder" in line for line in lines[:-1])
    for expected in (
        "content/concepts/new-idea.md:5: topic: still the scaffold's placeholder (专题 id，可选 basics / advanced-topic); write the real value",
        "content/concepts/new-idea.md:43: ## 速查: still the scaffold's placeholder (考前最后一小时要看的要点，3 到 8 条); write this part",
        "content/questions/new-question.md:4: primary: still the scaffold's placeholder (这道题考查的概念 id；make find Q=关键词 可以查); write the real value",
        "content/reports/new-report.md:4: company: still the scaffold's placeholder (公司 id，可选 acme / initech；新公司先加到 "
        "content/taxonomy.yml 的 companies); write the real value",
    ):
        assert expected in lines
    # Filled in (every placeholder replaced by a real value, optional parts deleted), all three pass.
    for path in (tmp_path / "content").glob("*/new-*.md"):
        text = path.read_text(encoding="utf-8")
        for hint, value in FILLED.items():
            text = text.replace(f"<<待填写：{hint}>>", value)
        text = re.sub(r"<<待填写：[^>]*>>", "一段真正的内容。", text)
        path.write_text(text, encoding="utf-8")
    checked = run(tmp_path, "check")
    assert checked.returncode == 0, checked.stderr
    assert "ok: 3 concepts, 2 questions, 3 reports" in checked.stdout


def test_scaffold_refuses_bad_or_taken_ids(tmp_path):
    write_corpus(tmp_path, valid_files())
    bad = run(tmp_path, "new", "concept", "Bad Id")
    assert bad.returncode == 2 and "not a valid id" in bad.stderr
    taken = run(tmp_path, "new", "report", "alpha")
    assert taken.returncode == 1 and "content/concepts/alpha.md already exists" in taken.stderr


def test_check_lists_problems(tmp_path):
    files = valid_files()
    files["questions/q-one.md"] = files["questions/q-one.md"].replace("primary: alpha", "primary: alhpa")
    write_corpus(tmp_path, files)
    (tmp_path / "templates").symlink_to(TEMPLATES)
    checked = run(tmp_path, "check")
    assert checked.returncode == 1
    assert "content/questions/q-one.md:4: primary: unknown concept 'alhpa' (did you mean 'alpha'?)" in checked.stderr


def test_find_lists_matching_ids_best_first_with_their_titles(tmp_path):
    files = valid_files()
    files["concepts/reward-over.md"] = concept("奖励模型过优化", extra="aliases: [过优化, Goodhart]\n")
    files["questions/q-two.md"] = question(extra="related: [reward-over]\n").replace("问题？", "RM 过优化了怎么办？")
    write_corpus(tmp_path, files)
    found = run(tmp_path, "find", "过优化")
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert lines[0].split() == ["concept", "reward-over", "奖励模型过优化", "(aliases)"]
    assert lines[1].split()[:2] == ["question", "q-two"]
    assert run(tmp_path, "find", "goodhart").stdout.split()[:2] == ["concept", "reward-over"]
    assert run(tmp_path, "find", "q-two").stdout.split()[:2] == ["question", "q-two"]
    nothing = run(tmp_path, "find", "量子纠缠")
    assert nothing.returncode == 1 and "nothing matches '量子纠缠'" in nothing.stderr


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"PATH": "/usr/bin:/bin", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(root)})


REWORDED = question().replace("问题？", "PPO 的目标里为什么要取 min？").replace("一句话答案。", "取 min 得到裁剪目标的悲观下界。")


def test_check_warns_on_a_new_question_that_rewords_an_existing_one_and_of_an_alias_naming_another_note(tmp_path):
    files = valid_files()
    files["questions/ppo-why-min.md"] = question().replace("问题？", "PPO/GRPO 的目标为什么要对 rA 和 clip(r)A 取 min？").replace(
        "一句话答案。", "取 min 得到未裁剪目标的悲观下界：只在改得已经够多的方向上截断梯度。")
    files["questions/q-two.md"] = question().replace("问题？", "KL 散度有哪几种估计？").replace("一句话答案。", "k1、k2、k3 三种。")
    write_corpus(tmp_path, files)
    (tmp_path / "templates").symlink_to(TEMPLATES)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "content")
    git(tmp_path, "commit", "-qm", "guide")
    (tmp_path / "content" / "questions" / "min-again.md").write_text(REWORDED, encoding="utf-8")  # the author's new file
    (tmp_path / "content" / "concepts" / "beta.md").write_text(concept("贝塔", extra="prerequisites: [alpha]\naliases: [B, Alpha]\n"),
                                                               encoding="utf-8")
    checked = run(tmp_path, "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.splitlines() == [
        "content/concepts/beta.md:8: aliases: warning: 'Alpha' is the id of content/concepts/alpha.md; "
        "as an alias here it leads readers away from that note: drop it, or link there",
        "content/questions/min-again.md:2: text: warning: perhaps the same question as content/questions/ppo-why-min.md "
        "(“PPO/GRPO 的目标为什么要对 rA 和 clip(r)A 取 min？”), which tests the same concept; if it is, merge them, "
        "else word them so the difference shows",
    ]


def test_new_question_with_its_text_shows_the_nearest_existing_questions_first(tmp_path):
    files = valid_files()
    files["questions/ppo-why-min.md"] = question().replace("问题？", "PPO 的目标为什么要取 min？")
    write_corpus(tmp_path, files)
    made = run(tmp_path, "new", "question", "min-again", "--text", "为什么 PPO 要取 min 而不是直接裁剪？")
    assert made.returncode == 0, made.stderr
    shown = made.stdout.splitlines()
    assert shown[0] == "the bank's nearest questions; if yours is one of them, improve that one instead:"
    assert shown[1].split()[1:] == ["content/questions/ppo-why-min.md", "PPO", "的目标为什么要取", "min？"]
    written = (tmp_path / "content" / "questions" / "min-again.md").read_text(encoding="utf-8")
    assert written.startswith('---\ntext: "为什么 PPO 要取 min 而不是直接裁剪？"\nbrief: <<待填写')


def test_every_make_command_the_readme_names_exists_and_its_scaffold_examples_would_work():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    named = set(re.findall(r"`make ([a-z][a-z-]*)", readme)) | set(re.findall(r"^make ([a-z][a-z-]*)", readme, re.M))
    assert named and named <= targets, sorted(named - targets)
    for kind, example in re.findall(r"make new-(concept|question|report|coding) ID=([a-z0-9-]+)", readme):
        folder = {"concept": "concepts", "question": "questions", "report": "reports", "coding": "coding"}[kind]
        assert not (ROOT / "content" / folder / f"{example}.md").exists(), f"README's example 'make new-{kind} ID={example}' would be refused"
