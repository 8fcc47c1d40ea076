# The commands a person runs. `make site` and `make test` work on a fresh clone:
# each installs what it needs first (virtualenv, npm packages, Debian packages).

PYTHON  ?= python3
VENV    ?= .venv
PY      := $(VENV)/bin/python
MKDOCS  := $(VENV)/bin/mkdocs
ENGINE  := PYTHONPATH=hooks $(PY) -m guide
# The site builder of `make site`: mkdocs (MkDocs + Material) or zensical (README: A second builder).
BUILDER ?= mkdocs
export NO_MKDOCS_2_WARNING := 1

.PHONY: site test serve publish check find snippets new-concept new-question new-report new-coding mutation bench audit deps system-deps clean

site: deps system-deps          ## build the whole site into site/: pages, search, cheat-sheet PDFs, Anki deck
	$(PY) scripts/build.py --builder $(BUILDER)   # compile -> builder (no hooks) -> finish

test: deps system-deps          ## run the whole test suite (unit, golden, build, browser, the study scripts' units)
	npx --no-install vitest run --config tests/js/vitest.config.mjs
	$(PY) -m pytest

serve: deps                     ## live preview for authors: edits to content/ and templates/ reload
	$(MKDOCS) serve -f mkdocs.serve.yml --livereload --dirty --no-strict

publish: site                   ## build the whole site and push it to the gh-pages branch (GitHub Pages)
	$(VENV)/bin/ghp-import --no-jekyll --push --force --message "Publish the guide" site

check: deps                     ## validate content/ and run every snippet, fast (no site build); warnings too
	$(ENGINE) check

find: deps                      ## the ids whose titles, aliases or text match: make find Q="奖励 过优化"
	$(ENGINE) find $(Q)

snippets: deps                  ## run one note's snippets afresh: make snippets F=content/concepts/dpo.md
	$(ENGINE) snippets $(F)

new-concept: deps               ## scaffold content/concepts/$(ID).md
	$(ENGINE) new concept $(ID)

new-question: deps              ## scaffold content/questions/$(ID).md; TEXT="…" fills in the question and shows the nearest existing ones
	$(ENGINE) new question $(ID) --text "$(TEXT)"

new-report: deps                ## scaffold content/reports/$(ID).md
	$(ENGINE) new report $(ID)

new-coding: deps                ## scaffold content/coding/$(ID).md (a 手撕 task)
	$(ENGINE) new coding $(ID)

mutation: deps                  ## mutation testing: mutmut over the engine, StrykerJS over the study scripts (slow: not in make test)
	$(PY) -m pip install --quiet -r requirements-mutation.txt
	$(PY) scripts/mutation.py

bench: deps system-deps         ## benchmarks: build cost by size, search in the browser, the author loop
	$(PY) bench/run.py
	$(PY) bench/search.py
	$(PY) bench/serve.py

deps: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

audit: site                     ## Lighthouse (mobile) on five pages, the Nu HTML Checker on every page
	scripts/install-system-deps.sh audit
	cd tools/audit && npm ci --no-audit --no-fund --loglevel=error
	$(PY) scripts/audit.py site

system-deps:                    ## Debian packages for browser and PDF tests, where missing
	scripts/install-system-deps.sh

clean:
	rm -rf site build .bench
