# Thin aliases for dev.py, which does the work with the standard library only.
PYTHON ?= python3

.PHONY: book test bench clean
book:
	$(PYTHON) dev.py book
test:
	$(PYTHON) dev.py test
bench:
	$(PYTHON) dev.py setup && .venv/bin/python benchmarks/run.py && .venv/bin/python benchmarks/ldim.py
clean:
	rm -rf _build
