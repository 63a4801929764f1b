#!/usr/bin/env python3
"""The Sluice command lines in the docs (docs/*.md, README.md code blocks) and
the profiles' "# run:" lines, one per line as JSON: file, line, the command,
and the exit status the doc shows after it ("exit N"), if any."""
import glob, json, os, re, sys

top = sys.argv[1]
BIN = "build/app/sluice/sluice"


def commands(path):
    lines = open(path).read().split("\n")
    in_block = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_block = not in_block
            i += 1
            continue
        if in_block:
            text = line[2:] if line.startswith("# ") else line
            if text.startswith(BIN + " ") or text.startswith("sluice -"):
                no = i + 1
                while text.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text[:-1] + " " + lines[i].strip()
                want = None
                for nxt in lines[i + 1:i + 60]:
                    if nxt.startswith("```") or nxt.startswith("# "):
                        break
                    m = re.fullmatch(r"exit (\d+)", nxt.strip())
                    if m:
                        want = int(m.group(1))
                yield no, text, want
        i += 1


for path in sorted(glob.glob(os.path.join(top, "docs", "*.md"))) + [os.path.join(top, "README.md")]:
    if path.endswith("cli.md"):
        continue
    for no, cmd, want in commands(path):
        print(json.dumps({"file": os.path.relpath(path, top), "line": no, "cmd": cmd, "exit": want}))
for path in sorted(glob.glob(os.path.join(top, "config", "*.cmd"))):
    for no, line in enumerate(open(path), 1):
        if line.startswith("# run:"):
            print(json.dumps({"file": os.path.relpath(path, top), "line": no,
                              "cmd": BIN + " " + line[len("# run:"):].strip(), "exit": None}))
