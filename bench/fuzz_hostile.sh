#!/bin/sh
# A longer hostile-input fuzzing campaign than the test suite's (issue 11): the loader, the
# evaluators and every report format over surrogates, control characters, huge numbers,
# deep structures and arbitrary bytes. Usage: bench/fuzz_hostile.sh [EXAMPLES] (default 2000).
# Random (not derandomized): run it now and then; a failure prints the seed to reproduce.
set -e
cd "$(dirname "$0")/.."
SI_LINT_FUZZ_EXAMPLES="${1:-2000}" exec python -m pytest -q -p no:cacheprovider \
    tests/test_fuzz_hostile.py tests/test_fuzz.py tests/test_loader.py -k "fuzz or loader_never"
