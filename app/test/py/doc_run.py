#!/usr/bin/env python3
"""Run the commands the docs show, as written, and compare what they print
with the sample output the docs show after them (app/test/sh/test_docs.sh).

    doc_run.py TOP SLUICE_BIN

What is run:
- every Sluice command line in a code block of docs/*.md and README.md
  (cli.md is generated), and every profile's "# run:" line: it must exit as
  the doc says ("exit N" after it) or 0;
- in a transcript (a plain ``` block whose lines "# CMD" are commands and the
  lines after each, its output), every command: its sample output must be
  what the program prints, line by line in order, compared by shape
  (norm(): figures, MACs and measured rates are free, words, units of
  configured values such as a link speed, and layout are not); a line "..."
  stands for any lines. A command ending in "-i" takes the "sluice> CMD"
  lines after it as its input (a session at the prompt);
- every ```sh block of getting-started.md and generator.md, whole, as a
  bash script (set -e): it must exit 0.

A benchmark (--bench) that ends without its goal here (exit 4: its
generator fell short on a busy machine) is accepted where the doc shows
exit 0, and said; its output is then not compared.

Only three things are changed: build/app/sluice/sluice is SLUICE_BIN,
--file-prefix is made unique, and --duration is cut to 2 s (the live lines
a longer run would add are left out of the comparison: a live line of the
sample may be missing from what the run prints). Commands that
need a NIC, the veth testbed (outside an sh block that sets it up),
hugepages or a value from the reader are checked for --no-pci only and
said SKIP with the reason, and so are the benchmark scripts
(scripts/bench-*: minutes each) unless SL_DOCS_BENCH=1 (the long suite).
Prints "ok   - ", "FAIL - " and "SKIP - " lines
and "test_docs: N passed, M failed, K skipped".
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

# --write: a transcript whose sample output is not what the command prints
# gets the output it printed instead (docs made again from the program).
WRITE = "--write" in sys.argv
args = [a for a in sys.argv[1:] if a != "--write"]
TOP, BIN = args[0], args[1]
rewrites = {}  # path -> [(line of the command, number of output lines, new lines)]
REL = "build/app/sluice/sluice"
SH_DOCS = ("docs/getting-started.md", "docs/generator.md")
# Transcript commands of these docs are all run (others: Sluice's only).
ALL_CMDS = SH_DOCS
passed = failed = skipped = 0
seq = 0


def ok(msg):
    global passed
    passed += 1
    print("ok   - " + msg)


def ko(msg):
    global failed
    failed += 1
    print("FAIL - " + msg)


def sk(msg):
    global skipped
    skipped += 1
    print("SKIP - " + msg)


ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|\r")
MAC = re.compile(r"\b([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}\b")
# A measured rate: a figure and a scaled unit (not a configured link speed).
RATE = re.compile(r"(?<!link )(?<![\w.])\d+(\.\d+)?(e[+-]?\d+)? ?[kMGT]?(pps|b/s)\b")
NUM = re.compile(r"\d+(\.\d+)?(e[+-]?\d+)?")


# A measured share of the line: printed where the rate is below it.
SHARE = re.compile(r"\s*\(\d+(\.\d+)?%( of line)?\)")


def norm(line):
    """A line's shape: figures, MACs, measured rates and shares replaced."""
    line = ANSI.sub("", line)
    line = SHARE.sub("", line)
    line = MAC.sub("MAC", line)
    line = RATE.sub("RATE", line)
    line = NUM.sub("#", line)
    return re.sub(r"\s+", " ", line).strip()


def blocks(path):
    """(language, first line number, lines) of each fenced block."""
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)", lines[i])
        if not m:
            i += 1
            continue
        lang, start, body = m.group(1), i + 2, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        yield lang, start, body
        i += 1


def joined(body, j):
    """Line j of a block with its backslash continuations: (text, next j)."""
    text = body[j]
    while text.endswith("\\") and j + 1 < len(body):
        j += 1
        text = text[:-1] + " " + body[j].strip()
    return text, j + 1


def is_sluice(cmd):
    return REL in cmd or cmd.startswith("sluice ")


def items(rel, path):
    """What a doc asks to run: dicts with kind, line, cmd, exit, out, input."""
    for lang, start, body in blocks(path):
        if lang == "sh" and rel in SH_DOCS:
            yield {"kind": "sh", "line": start - 1, "cmd": "\n".join(body)}
            continue
        transcript = lang == "" and any(l.startswith("# ") and
                                        is_command(l[2:], rel) for l in body)
        j = 0
        while j < len(body):
            line = body[j]
            if transcript and line.startswith("# ") and is_command(line[2:], rel):
                no = start + j
                cmd, j = joined(body, j)
                cmd = cmd[2:]
                out, inp = [], []
                while j < len(body) and not (body[j].startswith("# ") and
                                             is_command(body[j][2:], rel)):
                    out.append(body[j])
                    if body[j].startswith("sluice> ") and re.search(r" -i( |$)", cmd):
                        inp.append(body[j][len("sluice> "):])
                    j += 1
                want = None
                for o in out:
                    m = re.fullmatch(r"exit (\d+)", o.strip())
                    if m:
                        want = int(m.group(1))
                yield {"kind": "cmd", "line": no, "cmd": cmd, "exit": want,
                       "out": out, "input": inp}
                continue
            text = line[2:] if line.startswith("# ") else line
            if text.startswith(REL + " ") or text.startswith("sluice -"):
                no = start + j
                cmd, j = joined(body, j)
                cmd = cmd[2:] if cmd.startswith("# ") else cmd
                yield {"kind": "cmd", "line": no, "cmd": cmd, "exit": None, "out": [],
                       "input": []}
                continue
            j += 1


def is_command(text, rel):
    """A transcript line "# TEXT" is a command to run (else a comment)."""
    if is_sluice(text):
        return True
    return rel in ALL_CMDS and re.match(r"(rm |tshark |scripts/|jq |cat |printf |echo )", text)


def skip_reason(cmd, in_sh):
    if cmd.startswith("scripts/bench-") and os.environ.get("SL_DOCS_BENCH") != "1":
        return "a benchmark of minutes: the long suite runs it (SL_DOCS_BENCH=1)"
    if "-a 0000:" in cmd:
        return "needs a NIC bound to DPDK (docs/nics.md)"
    if not in_sh and ("net_af_packet" in cmd or "net_af_xdp" in cmd):
        return "needs the veth testbed (docs/testbed.md)"
    if re.search(r"\$[a-z]|\"\$|\.\.\.", cmd):
        return "takes a value from the reader"
    if cmd.rstrip().endswith("&"):
        return "a background process in a sequence"
    if cmd.startswith("sluice "):
        return "runs an installed sluice with hugepages (docs/nics.md)"
    return None


def rewrite(cmd, cap_duration):
    """The command as run here: the binary, a prefix of its own, a short --duration."""
    global seq
    seq += 1
    pfx = "sldoc%dx%d" % (os.getpid(), seq)
    cmd = cmd.replace(REL, BIN)
    if "--file-prefix" in cmd:
        cmd = re.sub(r"--file-prefix \S+", "--file-prefix " + pfx, cmd)
    else:
        cmd = cmd.replace(BIN, BIN + " --file-prefix " + pfx, 1)
    if cap_duration:
        cmd = re.sub(r"--duration (\d+(\.\d+)?)",
                     lambda m: "--duration " + str(min(float(m.group(1)), 2)), cmd)
    return cmd, pfx


def check_no_pci(where, cmd):
    eal = cmd.split(" -- ")[0]
    if " -" in eal[eal.find("sluice"):] and " -a " not in eal and "--no-pci" not in eal:
        ko("%s: virtual ports only, without --no-pci: %s" % (where, cmd))
        return False
    return True


# Live lines: how many a run prints depends on when its last period falls.
LIVE = re.compile(r"^\[ ?#s/#s\]|^txq # \w+ # lcores:")


def compare(want, got):
    """Doc lines (less exit lines) in order within the output; "..." any
    lines; a live line may be missing (one more or less at a run's end)."""
    g = [norm(x) for x in got]
    g = [x for x in g if x]
    k = 0
    for w in want:
        if re.fullmatch(r"exit \d+", w.strip()) or not w.strip():
            continue
        if w.strip() == "...":
            continue
        nw = norm(w)
        j = k
        while j < len(g) and g[j] != nw:
            j += 1
        if j == len(g):
            if LIVE.search(nw):
                continue
            return w
        k = j + 1
    return None


def run(cmd, stdin, cwd, timeout):
    p = subprocess.run(["bash", "-c", cmd], input=stdin, cwd=cwd, capture_output=True,
                       text=True, timeout=timeout, errors="replace")
    return p.returncode, p.stdout + p.stderr


def main():
    docs = sorted(glob.glob(os.path.join(TOP, "docs", "*.md"))) + [os.path.join(TOP, "README.md")]
    todo = []
    for path in docs:
        rel = os.path.relpath(path, TOP)
        if rel.endswith("cli.md"):
            continue
        todo += [(rel, it) for it in items(rel, path)]
    for path in sorted(glob.glob(os.path.join(TOP, "config", "*.cmd"))):
        for no, line in enumerate(open(path), 1):
            if line.startswith("# run:"):
                todo.append((os.path.relpath(path, TOP),
                             {"kind": "cmd", "line": no, "exit": None, "out": [], "input": [],
                              "cmd": REL + " " + line[len("# run:"):].strip()}))
    if len(todo) < 10:
        ko("only %d commands found in the docs" % len(todo))
    cwd = tempfile.mkdtemp()
    for d in ("config", "scripts"):
        os.symlink(os.path.join(TOP, d), os.path.join(cwd, d))
    os.environ["SLUICE_BIN"] = BIN  # the scripts' own sluice
    for rel, it in todo:
        where = "%s:%d" % (rel, it["line"])
        if it["kind"] == "sh":
            script = it["cmd"].replace(REL, BIN)
            if "scripts/setup.sh" in script:
                # The README's first step, what CI runs first: not again here.
                script = "\n".join(l for l in script.split("\n")
                                   if not l.lstrip().startswith("scripts/setup.sh"))
            try:
                rc, out = run("set -e\n" + script, None, TOP, 300)
            except subprocess.TimeoutExpired:
                ko("%s: the sh block did not end in 300 s" % where)
                continue
            if rc == 0:
                ok("%s: the sh block runs as written (exit 0)" % where)
            else:
                ko("%s: the sh block exits %d: %s" % (where, rc, " | ".join(out.strip().split("\n")[-3:])))
            continue
        cmd = it["cmd"]
        if is_sluice(cmd) and not check_no_pci(where, cmd):
            continue
        why = skip_reason(cmd, False)
        if why is not None:
            sk("%s: %s (--no-pci checked)" % (where, why))
            continue
        # as written, less the transcript's own '; echo "exit $?"'
        shown = [o for o in it["out"] if o.strip()]
        runnable = re.sub(r';\s*echo "exit \$\?"$', "", cmd)
        runnable, pfx = rewrite(runnable, cap_duration=True)
        stdin = "".join(x + "\n" for x in it["input"]) if it["input"] else None
        try:
            rc, out = run(runnable, stdin, cwd, 120)
        except subprocess.TimeoutExpired:
            ko("%s: did not end in 120 s: %s" % (where, cmd))
            continue
        finally:
            subprocess.run(["rm", "-rf", "/var/run/dpdk/" + pfx])
        want = it["exit"] if it["exit"] is not None else 0
        if rc == 4 and want == 0 and "--bench" in cmd:
            # A benchmark may end without its goal on a busy machine (its
            # generator falling short): its exit code says so, its output
            # differs (why it ended); the run itself is as written.
            ok("%s: exit 4 here, the doc shows 0: a benchmark without its goal on this "
               "machine (%s)" % (where, " ".join(l for l in out.split("\n") if "ended" in l)[:200]))
            continue
        if rc != want:
            ko("%s: exit %d, the doc says %d: %s | %s" % (where, rc, want, cmd,
               " ".join(l for l in out.split("\n") if "sluice:" in l or "error" in l)[:300]))
            continue
        if not shown:
            ok("%s: exit %d as the doc says" % (where, rc))
            continue
        miss = compare(it["out"], out.split("\n"))
        if miss is not None and WRITE:
            new = [l.rstrip() for l in ANSI.sub("", out).rstrip("\n").split("\n")]
            if it["exit"] is not None:
                new.append("exit %d" % rc)
            rewrites.setdefault(rel, []).append((it["line"], len(it["out"]), new))
        if miss is None:
            ok("%s: exit %d, and its %d sample lines are what it prints" % (where, rc, len(shown)))
        else:
            ko("%s: the sample line '%s' (shape '%s') is not in what it prints: %s" %
               (where, miss.strip(), norm(miss), " / ".join(norm(l) for l in out.split("\n") if l.strip())[:600]))
    for rel, rs in rewrites.items():
        path = os.path.join(TOP, rel)
        lines = open(path).read().split("\n")
        for no, n, new in sorted(rs, reverse=True):
            # the command is line no (1-based; continuations follow), its output after it
            k = no
            while lines[k - 1].endswith("\\"):
                k += 1
            lines[k:k + n] = new
        open(path, "w").write("\n".join(lines))
        print("wrote %s (%d transcript(s))" % (rel, len(rs)))
    print("test_docs: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
