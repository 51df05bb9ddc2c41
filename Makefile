# Two commands do all set-up: `make run` (the main job, offline) and `make test`.
SHELL := /bin/bash
STAMP := node_modules/.install-stamp
PF := npx --no-install persona-forge

.PHONY: install run test lint typecheck vitest pytest bench clean

install: $(STAMP)

$(STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(STAMP)

run: install
	$(PF) run pipelines/quickstart.yaml --out out/quickstart
	@echo
	@echo "Outputs are in out/quickstart/ (manifest.json lists every file with its sha256)."

lint: install
	npx --no-install biome check .

typecheck: install
	npx --no-install tsc --noEmit -p tsconfig.json

vitest: install
	@mkdir -p .cache
	npx --no-install vitest run --reporter=default --reporter=json --outputFile.json=.cache/vitest.json
	@node -e 'const r=require("./.cache/vitest.json");console.log("vitest: "+r.numPassedTests+" passed, "+r.numFailedTests+" failed, "+(r.numPendingTests+r.numTodoTests)+" skipped")'

pytest:
	@if [ -d python ] && ls python/test_*.py >/dev/null 2>&1; then \
	  cd python && python3 -m unittest discover -v -p 'test_*.py'; \
	else echo "no python tests yet"; fi

test: lint typecheck vitest pytest

# Benchmarks print one JSON object each; they are never part of `make test`.
bench: install
	@for b in bench/*.ts; do echo "== $$b"; npx --no-install tsx $$b || exit 1; done

clean:
	rm -rf out .pf-cache
