# The two quick-start commands: `make run` and `make test`. Both create .venv on first use.
VENV := .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run nightly test test-fast test-bounds lock clean bench bench-scale unseen browser latex dictionaries kernels

# Installed from the tested set, constraints.txt: a changed lock reinstalls (see README: installing). The graph's
# modules are byte-compiled, as pip compiles a package it installs (not an editable one): where
# PYTHONDONTWRITEBYTECODE is set, as in many containers, every run would compile them again (some 0.3 CPU-s).
$(STAMP): pyproject.toml constraints.txt
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	$(PYTHON) -m compileall -q argrank tasks workflows
	touch $(STAMP)

# BM25's and the index inversion's numba kernels compiled ahead of time (argrank/kernels/ahead_of_time.py), which a
# process loads without numba's compiler; rebuilt when their sources change. Where they cannot be built (no C
# compiler), numba's jit-compiled kernels run instead.
KERNEL_SOURCES := $(addprefix argrank/kernels/,bm25_numba.py bm25_numpy.py ahead_of_time.py inversion.py prefetch.py)
PREBUILT := argrank/kernels/prebuilt/.built
$(PREBUILT): $(STAMP) $(KERNEL_SOURCES)
	@$(PYTHON) -m argrank.kernels.ahead_of_time && touch $@ || \
		echo "note: the kernels could not be built ahead of time; numba's jit-compiled ones run instead"

kernels: $(PREBUILT)

run: $(STAMP) kernels dictionaries
	$(VENV)/bin/argrank run

# The submission again, its means appended to outputs/history.jsonl; exit 3 when one fell (see README: scheduling).
nightly: $(STAMP) kernels dictionaries
	$(VENV)/bin/argrank nightly

# Two test processes (pytest-xdist), one per core of the 2-core machine; a test file stays in one process, so
# its module fixtures (a clean run to compare with) are built once.
test: $(STAMP) kernels browser latex dictionaries
	$(VENV)/bin/lint-imports
	$(PYTHON) -m pytest -q -n 2 --dist loadfile

# The quick loop: tests/unit without the analyzer's exhaustive checks (no graph, no processes, no luigid).
test-fast: $(STAMP) kernels
	$(VENV)/bin/lint-imports
	$(PYTHON) -m pytest -q -m "not slow"

# The benchmark's peer libraries (bm25s, tantivy) are an extra of their own: never runtime or test dependencies.
$(BENCH_STAMP): $(STAMP)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[bench]'
	touch $(BENCH_STAMP)

# constraints.txt again: the newest versions pyproject.toml's ranges allow, every extra, pinned; `make test` after.
lock: $(STAMP)
	$(PYTHON) -m tools.dependencies lock

# The fast suite at the ranges' lowest versions and at their newest, each in a throwaway venv (several minutes and
# PyPI's downloads: not part of `make test`). Run it after changing a range.
test-bounds: $(STAMP)
	$(PYTHON) -m tools.dependencies bounds

# Stages, peers and FullSubmission on a synthetic args.me-size corpus: outputs/bench/results.{json,md}.
# Options after BENCH_ARGS=, e.g. make bench BENCH_ARGS="--arguments 20000 --skip-full-run" (see bench/README.md).
bench: $(BENCH_STAMP) kernels dictionaries
	PYTHONPATH=. $(PYTHON) -m bench.benchmark $(BENCH_ARGS)

# The cost curve: the benchmark at 1×, 3× and 10× args.me, ours beside tantivy and bm25s-numba (bench/scale.py):
# outputs/bench/scale.json, docs/img/scale.png and the cost-curve section of docs/benchmarks.md. Long, and tens of GB
# of disk under outputs/bench/scale (the corpora are generated once and kept); SCALE_ARGS=--report-only redraws.
bench-scale: $(BENCH_STAMP) kernels dictionaries
	PYTHONPATH=. $(PYTHON) -m bench.scale $(SCALE_ARGS)

# Every benchmark command on the real data in ../shared/data, nested cross-validation's held-out figures beside the
# inner ones: outputs/bench/unseen.json and docs/unseen-data.md (bench/unseen.py).
unseen: $(STAMP) kernels dictionaries
	PYTHONPATH=. $(PYTHON) -m bench.unseen $(UNSEEN_ARGS)

# Debian packages a test or a track uses, installed where they are missing and apt-get can run (as root), else a note:
# $(call debian,FILE,PACKAGES,NOTE) installs PACKAGES (apt-get's options first, if any) unless FILE exists.
APT := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
define debian
	@[ -e $(1) ] || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		{ $(APT) $(2) >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && $(APT) $(2) >/dev/null 2>&1; }; } ; } || \
		echo "note: $(3)"
endef

# Debian's chromium, for the test that draws the HTML report in a real browser; elsewhere that test is skipped, with
# the reason in pytest's summary (and fails under CI=true).
browser:
	$(call debian,/usr/bin/chromium,chromium,chromium is not installed; the browser test of the report will be skipped)

# Debian's pdflatex and booktabs (texlive-latex-recommended), for the test that compiles `compare --latex`'s table.
latex:
	$(call debian,/usr/bin/pdflatex,--no-install-recommends texlive-latex-recommended,pdflatex is not installed; the LaTeX table's test will be skipped)

# FreeDict's German, French and Italian dictionaries (Debian's dict-freedict-* packages, /usr/share/dictd), which the
# perspective track translates French and Italian questions with; elsewhere questions are ranked untranslated, with a
# warning (see README: perspective).
FREEDICT := dict-freedict-deu-fra dict-freedict-deu-ita dict-freedict-fra-deu dict-freedict-fra-ita dict-freedict-ita-deu
dictionaries:
	$(call debian,/usr/share/dictd/freedict-ita-deu.index,--no-install-recommends $(FREEDICT),FreeDict's dictionaries are not installed; perspective questions will be ranked untranslated)

clean:
	rm -rf outputs
