#!/usr/bin/env bash
# test_docs.sh - the docs and the program agree (issues 15 and 35): every
# Sluice command in docs/*.md, README.md and the profiles' "# run:" lines
# runs as written and exits as the doc says; every transcript's sample
# output is what the program prints (compared by shape: figures, MACs and
# measured rates free, words, units and layout not); the sh blocks of
# getting-started.md and generator.md run whole. app/test/py/doc_run.py
# says what exactly is run and changed; `doc_run.py --write TOP BIN` makes a
# failing transcript's sample output again from the program.
set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${SLUICE_BIN:-$top/build/app/sluice/sluice}
exec python3 "$top/app/test/py/doc_run.py" "$top" "$bin"
