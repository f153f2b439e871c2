# The two quick-start commands: `make run` and `make test`. Both create .venv on first use.
VENV := .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	PYTHONPATH=. $(VENV)/bin/luigi --module workflows FullSubmission --local-scheduler
	$(VENV)/bin/argrank report

test: $(STAMP)
	$(PYTHON) -m pytest -q

clean:
	rm -rf outputs
