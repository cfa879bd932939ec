bench:
	./bench/run.sh

test:
	./scripts/test.sh

.PHONY: bench test
