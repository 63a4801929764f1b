#!/usr/bin/env bash
# ThreadSanitizer on the engine's stress suite: build build-tsan (gcc,
# -fsanitize=thread) and run sluice-test --suite stress (or the suites and
# tests given) with app/test/tsan.supp. Any report not suppressed fails the
# run (exit 66). Why each suppression: docs/reliability.md, "Sanitizers".
#   scripts/tsan.sh                 the stress suite
#   scripts/tsan.sh --suite fast    other sluice-test arguments
# Environment: SLUICE_TSAN_BUILD=dir (default build-tsan),
# SLUICE_BUILD_LOCK=FILE (build under flock FILE).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${SLUICE_TSAN_BUILD:-$top/build-tsan}
lock=()
[ -n "${SLUICE_BUILD_LOCK:-}" ] && lock=(flock "$SLUICE_BUILD_LOCK")
[ -f "$build/build.ninja" ] ||
	meson setup "$build" "$top" --buildtype=debugoptimized -Db_sanitize=thread \
		-Db_lundef=false >/dev/null
"${lock[@]}" ninja -C "$build" app/test/sluice-test >/dev/null
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--suite stress)
export TSAN_OPTIONS="suppressions=$top/app/test/tsan.supp exitcode=66 halt_on_error=0 history_size=4 ${TSAN_OPTIONS:-}"
exec "$build/app/test/sluice-test" "${args[@]}"
