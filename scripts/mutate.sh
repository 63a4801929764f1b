#!/usr/bin/env bash
# The engine's guards, removed one at a time: each mutant of
# lib/xmit/sl_xmit.c is built and run against the fast and stress suites of
# sluice-test, which must fail for it (docs/testing.md, docs/lltx.md).
#
#   scripts/mutate.sh               every mutant
#   scripts/mutate.sh NAME...       these (scripts/mutate.sh --list names them)
#
# It works on a copy of the source tree in a temporary directory, with one
# build directory there: each mutant is applied to the copy's sl_xmit.c,
# built (ninja rebuilds that file and relinks sluice-test) and run (the
# litmus tests first, the whole fast and stress suites when they pass), and the
# file is put back before the next; the tree you work in is not touched.
# Prints one line per mutant (the tests that failed, or "survived") and ends
# with "N caught, M survived"; exit 0 when every counted mutant was caught.
# Mutants marked "weak" can only be shown on a weakly ordered machine (Arm,
# POWER): they are listed apart and not counted.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=lib/xmit/sl_xmit.c

# name | kind (count or weak) | what the guard is | old text | new text
# (old and new are Python string literals; old must occur exactly once).
read -r -d '' MUTANTS <<'EOF'
release-fence|count|protocol 2: the owner's seq_cst fence between unlock and the load of missed|'\t\ttxq_unlock(q);\n\t\tif (TXQ_TEST_FLAG(q, SL_TXQ_T_NO_RECHECK))\n\t\t\treturn total;\n\t\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n'|'\t\ttxq_unlock(q);\n\t\tif (TXQ_TEST_FLAG(q, SL_TXQ_T_NO_RECHECK))\n\t\t\treturn total;\n'
release-recheck|count|protocol 2: the owner's re-check of missed after unlocking|'\t\tif (likely(!__atomic_load_n(&q->missed, __ATOMIC_ACQUIRE))) {\n\t\t\tTXQ_TEST_NOTE(q, 2);\n\t\t\treturn total;\n\t\t}\n'|'\t\tTXQ_TEST_NOTE(q, 2);\n\t\treturn total;\n'
single-redrain|count|protocol 2: the release loops (re-checks after its own re-drain)|'\t\ttotal += txq_drain(c);\n\t}\n}'|'\t\ttotal += txq_drain(c);\n\t\ttxq_unlock(q);\n\t\treturn total;\n\t}\n}'
second-trylock|count|protocol 2: trylock-or-miss tries the lock again after setting missed|'\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n\treturn txq_trylock(q);\n'|'\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n\treturn 0;\n'
miss-fence|weak|protocol 2: the producer's seq_cst fence between setting missed and its second trylock (on x86 the lock-prefixed RMW that sets missed is itself a full fence)|'\ttxq_set_missed(q);\n\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n\treturn txq_trylock(q);\n'|'\ttxq_set_missed(q);\n\treturn txq_trylock(q);\n'
miss-store-no-fence|count|protocol 2: the producer's set of missed is a full barrier before its second trylock (a plain store, no fence: what x86 can show of miss-fence)|'\ttxq_set_missed(q);\n\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n\treturn txq_trylock(q);\n'|'\t__atomic_store_n(&q->missed, 1, __ATOMIC_RELEASE);\n\treturn txq_trylock(q);\n'
clear-relaxed|count|protocol 2: the drain clears missed with an exchange (acq_rel), not a relaxed store|'__atomic_exchange_n(&q->missed, 0, __ATOMIC_ACQ_REL);'|'__atomic_store_n(&q->missed, 0, __ATOMIC_RELAXED);'
clear-after-look|count|protocol 2: the drain clears missed before it looks at the ring, not after|'\t\t__atomic_exchange_n(&q->missed, 0, __ATOMIC_ACQ_REL);\n\t\t/* Only a drainer sets drv_missed, so only earlier drainers\' flags go. */\n\t\tif (unlikely(__atomic_load_n(&q->drv_missed, __ATOMIC_RELAXED)))\n\t\t\t__atomic_exchange_n(&q->drv_missed, 0, __ATOMIC_ACQ_REL);\n\t\tn = rte_ring_dequeue_burst_start(q->backlog, (void **)pkts, q->drain_burst, NULL);\n'|'\t\tif (unlikely(__atomic_load_n(&q->drv_missed, __ATOMIC_RELAXED)))\n\t\t\t__atomic_exchange_n(&q->drv_missed, 0, __ATOMIC_ACQ_REL);\n\t\tn = rte_ring_dequeue_burst_start(q->backlog, (void **)pkts, q->drain_burst, NULL);\n\t\t__atomic_exchange_n(&q->missed, 0, __ATOMIC_ACQ_REL);\n'
out-of-rounds-flag|count|protocol 2: a drain out of rounds with work left sets missed|'\tif (sl_txq_pending(q) != 0)\n\t\ttxq_set_missed(q);\n\treturn total;'|'\treturn total;'
kick-locked-requeue|count|locked mode: a burst queued behind the owner is kicked (trylock-or-miss)|'\tk = txq_requeue(c, pkts, n);\n\ttxq_kick(c);\n'|'\tk = txq_requeue(c, pkts, n);\n'
try-wait-keeps|count|locked mode: sl_xmit_try_wait() keeps a burst whose wait ran out, never queues it|'\t\t\tTXQ_ADD(&c, deferred, 1);\n\t\t\t*deferred = true;\n\t\t\tk = 0;\n'|'\t\t\tk = txq_requeue(&c, pkts, n);\n\t\t\ttxq_kick(&c);\n'
try-wait-release|count|locked mode: an owner that got the lock in sl_xmit_try_wait() releases with the re-check|'\t\t\tTXQ_ADD(&c, waited, 1);\n\t\t\tk = txq_xmit_owner(&c, pkts, n);\n\t\t\ttxq_release(&c);\n'|'\t\t\tTXQ_ADD(&c, waited, 1);\n\t\t\tk = txq_xmit_owner(&c, pkts, n);\n\t\t\ttxq_unlock(q);\n'
waited-release|count|locked mode: an owner that got the lock after the bounded wait releases with the re-check|'\t\tTXQ_ADD(c, waited, 1);\n\t\tk = txq_xmit_owner(c, pkts, n);\n\t\ttxq_release(c);\n'|'\t\tTXQ_ADD(c, waited, 1);\n\t\tk = txq_xmit_owner(c, pkts, n);\n\t\ttxq_unlock(c->q);\n'
kick-lltx-own|count|lltx: a burst queued behind our own earlier packets is kicked|'\t\t\tk = txq_requeue_own(c, pkts, n);\n\t\t\ttxq_kick(c);\n'|'\t\t\tk = txq_requeue_own(c, pkts, n);\n'
kick-lltx-tail|count|lltx: the tail of a BUSY or LOCKED send (or a send past the backlog) is kicked|'\t */\n\ttxq_kick(c);\n\treturn k;\n}\n\nstatic uint16_t\ntxq_xmit_spin'|'\t */\n\treturn k;\n}\n\nstatic uint16_t\ntxq_xmit_spin'
kick-lltx-past|count|lltx: a send past a backlog held by another is kicked (the backlog may be one a release left flagged)|'!__atomic_load_n(&c->q->drv_missed, __ATOMIC_RELAXED) && !past'|'!__atomic_load_n(&c->q->drv_missed, __ATOMIC_RELAXED)'
kick-lltx-locked-own|count|lltx: an owner whose own send was answered LOCKED kicks after its release|'\t\t\tif (unlikely(st == SL_XMIT_LOCKED))\n\t\t\t\ttxq_kick(c);\n'|''
drain-without-lock|count|the backlog is drained only by the lock word's owner|'\tif (txq_trylock_or_miss(c->q)) {\n\t\tsent = txq_drain(c);'|'\tif (txq_trylock_or_miss(c->q) + 1) {\n\t\tsent = txq_drain(c);'
mark-before-enqueue|count|lltx: the producer's backlog mark is read after its enqueue|'\tuint16_t k = txq_requeue(c, pkts, n);\n\n\tif (!c->shared) {\n\t\t/* The producer head, read after our enqueue: at or past its end. */\n\t\tc->lc->bl_mark = __atomic_load_n(&c->q->backlog->rts_prod.head.val.pos,\n\t\t\t\t\t\t __ATOMIC_ACQUIRE);\n\t\tc->lc->bl_wait = 1;\n\t}\n'|'\tuint16_t k;\n\n\tif (!c->shared) {\n\t\tc->lc->bl_mark = __atomic_load_n(&c->q->backlog->rts_prod.head.val.pos,\n\t\t\t\t\t\t __ATOMIC_ACQUIRE);\n\t\tc->lc->bl_wait = 1;\n\t}\n\tk = txq_requeue(c, pkts, n);\n'
own-sent-tail|count|lltx: sending past the backlog waits until the consumer tail passed our mark|'\tif ((int32_t)(__atomic_load_n(&c->q->backlog->cons.tail, __ATOMIC_ACQUIRE) -\n\t\t      lc->bl_mark) < 0)\n\t\treturn false;\n'|''
shared-slot-past|count|lltx: the shared slot of unregistered threads never sends past the backlog|'\tif (c->shared)\n\t\treturn false;\n\tif (lc->bl_wait == 0)'|'\tif (lc->bl_wait == 0)'
owner-drains-first|count|an owner sends what is ahead of it before its own burst|'\tif (sl_txq_pending(c->q) != 0) {\n\t\ttxq_drain(c);\n\t\tif (sl_txq_pending(c->q) != 0)\n\t\t\treturn txq_requeue_own(c, pkts, n);\n\t}\n\treturn txq_send(c, pkts, n, st);'|'\treturn txq_send(c, pkts, n, st);'
drv-retry|count|protocol 3: a drainer answered LOCKED flags drv_missed and retries once|'\t\t\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n\t\t\tsent = txq_drv(c, pkts, n, &st);\n\t\t\tif (st == SL_XMIT_LOCKED) {'|'\t\t\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n\t\t\tif (st == SL_XMIT_LOCKED) {'
drv-missed-check|count|protocol 3: a direct sender looks at drv_missed after its driver call|'!__atomic_load_n(&c->q->drv_missed, __ATOMIC_RELAXED) && !past'|'!past'
drv-sender-fence|count|protocol 3: the direct sender's seq_cst fence before it loads drv_missed|'\t\t/* Protocol 3: did a drainer find the driver lock we held? */\n\t\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n'|''
drv-flag-fence|weak|protocol 3: the drainer's seq_cst fence between setting drv_missed and its retry (on x86 the lock-prefixed RMW that sets drv_missed is itself a full fence)|'\t\t\t__atomic_fetch_or(&q->drv_missed, 1, __ATOMIC_RELEASE);\n\t\t\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n'|'\t\t\t__atomic_fetch_or(&q->drv_missed, 1, __ATOMIC_RELEASE);\n'
drv-store-no-fence|count|protocol 3: the drainer's set of drv_missed is a full barrier before its retry (a plain store, no fence: what x86 can show of drv-flag-fence)|'\t\t\t__atomic_fetch_or(&q->drv_missed, 1, __ATOMIC_RELEASE);\n\t\t\trte_atomic_thread_fence(__ATOMIC_SEQ_CST);\n'|'\t\t\t__atomic_store_n(&q->drv_missed, 1, __ATOMIC_RELEASE);\n'
dead-loop|count|a re-entrant xmit on a queue the lcore is inside is dropped and counted|'\tif (unlikely(!txq_enter(q, &c)))\n\t\treturn txq_dead_loop(&c, pkts, n);\n\tswitch'|'\ttxq_enter(q, &c);\n\tswitch'
count-once|count|a packet is counted as sent only when the driver took it|'\tTXQ_ADD(c, tx_packets, sent);\n'|'\tTXQ_ADD(c, tx_packets, n);\n'
missed-rmw|weak|protocol 2: missed is set with an RMW (one release sequence for several producers), not a plain store|'\t__atomic_fetch_or(&q->missed, 1, __ATOMIC_RELEASE);'|'\t__atomic_store_n(&q->missed, 1, __ATOMIC_RELEASE);'
EOF

mutants() { printf '%s\n' "$MUTANTS"; }

if [ "${1:-}" = --list ]; then
	mutants | while IFS='|' read -r name kind what _; do printf '%-22s %-5s %s\n' "$name" "$kind" "$what"; done
	exit 0
fi

work=$(mktemp -d /tmp/sluice-mutate.XXXXXX)
# SL_MUTATE_KEEP=1 keeps the copy, its build and each mutant's run log.
if [ "${SL_MUTATE_KEEP:-0}" = 1 ]; then
	echo "mutate: keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar cf - 2>/dev/null) |
	tar xf - -C "$work/" || { echo "mutate: cannot copy the tree" >&2; exit 1; }
cp "$work/$src" "$work/orig.c"
echo "mutate: building the unmodified engine in $work/build"
if ! meson setup "$work/build" "$work" >"$work/setup.log" 2>&1 ||
	! ninja -C "$work/build" app/test/sluice-test >"$work/ninja.log" 2>&1; then
	echo "mutate: the unmodified tree does not build: $work/ninja.log" >&2
	tail -20 "$work/setup.log" "$work/ninja.log" >&2
	exit 1
fi
# Run the litmus tests, then (if they all pass) the fast and stress suites;
# print what caught the mutant: the tests that failed, "crashed (exit N)"
# or "hung". A test that failed only because its race did not happen ("the
# test proved nothing") did not catch anything: it is named in
# $work/inconclusive, as is a SKIP line (the machine too busy for a race).
run() {
	local rc failed crashed
	: >"$work/inconclusive"
	local limit=600 # the litmus tests (each at most 120 s); then the suites: 900 s, as meson
	for args in "litmus_missed_recheck litmus_missed_recheck_waited litmus_missed_recheck_try_wait litmus_driver_locked litmus_unregistered_lltx" \
		"--suite fast --suite stress"; do
		# shellcheck disable=SC2086
		timeout -k 10 "$limit" "$work/build/app/test/sluice-test" $args >"$work/run.log" 2>&1
		rc=$?
		# CHECK prints its reason on the line before the test's "FAIL name".
		failed=$(awk -v inc="$work/inconclusive" '
			/^    FAIL / { why = $0 }
			/^FAIL / { if (why ~ /proved nothing/) print $2 >> inc; else print $2; why = "" }
			/^SKIP / { print >> inc }' "$work/run.log" | paste -sd, -)
		crashed=
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			crashed="hung: killed after $limit s"
		elif [ $rc -ne 0 ] && ! grep -qE '^[0-9]+ passed, [0-9]+ failed' "$work/run.log"; then
			crashed="crashed (exit $rc)" # it never reached its closing line
		fi
		limit=900
		failed=$failed${crashed:+${failed:+, }$crashed}
		if [ -n "$failed" ]; then
			cp "$work/run.log" "$work/run-$name.log"
			echo "$failed"
			return 0
		fi
	done
}

name=unmodified
base=$(run)
if [ -n "$base" ]; then
	echo "mutate: the unmodified engine fails: $base (fix that first)" >&2
	exit 1
fi

caught=0 survived=0 weak=()
while IFS='|' read -r name kind what old new; do
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	cp "$work/orig.c" "$work/$src"
	if ! python3 - "$work/$src" "$old" "$new" <<'PY'; then
import ast, sys
path, old, new = sys.argv[1], ast.literal_eval(sys.argv[2]), ast.literal_eval(sys.argv[3])
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"occurs {text.count(old)} times")
open(path, "w").write(text.replace(old, new))
PY
		echo "mutate: $name no longer applies to $src: update scripts/mutate.sh" >&2
		exit 1
	fi
	if ! ninja -C "$work/build" app/test/sluice-test >"$work/ninja.log" 2>&1; then
		res="does not build"
	else
		res=$(run)
	fi
	if [ "$kind" = weak ]; then
		weak+=("$(printf '%-22s %s (%s)' "$name" "${res:-survived}" "$what")")
		continue
	fi
	if [ -n "$res" ] && [ "$res" != "does not build" ]; then
		caught=$((caught + 1))
		printf '%-22s caught by %s\n' "$name" "$res"
	else
		survived=$((survived + 1))
		printf '%-22s %s  <- %s\n' "$name" "${res:-survived}" "$what"
		if [ -s "$work/inconclusive" ]; then
			printf '%-22s   (inconclusive: %s)\n' "" "$(paste -sd';' "$work/inconclusive")"
		fi
	fi
done < <(mutants)
cp "$work/orig.c" "$work/$src"
if [ ${#weak[@]} -gt 0 ]; then
	echo "not counted (a weakly ordered machine is needed to show these):"
	printf '  %s\n' "${weak[@]}"
fi
echo "$caught caught, $survived survived"
[ "$survived" -eq 0 ]
