#!/usr/bin/env python3
"""The build's check of the player model's weight sets: src/model/meson.build pins every
data/player_model/weights-vN.txt by the FNV-1a 64 of its bytes, and scripts/pm_weights.py
compiles them into C only when each file is the one its version froze. Every weights file
is pinned, and the pins are the files' hashes; the real files compile into C the compiler
accepts, with the sets in version order; a file with one byte changed (even in a comment),
a set without a pin, or a pin without its file is refused with a message naming it."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ["UZ_SRC_ROOT"]
sys.path.insert(0, os.path.join(SRC, "tests", "cli"))
sys.path.insert(0, os.path.join(SRC, "scripts"))
from harness import check, summary  # noqa: E402
import pm_weights  # noqa: E402

DATA = os.path.join(SRC, "data", "player_model")
SCRIPT = os.path.join(SRC, "scripts", "pm_weights.py")
CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def meson_pins():
    """{version: FNV} of the player_weight_sets list in src/model/meson.build."""
    text = open(os.path.join(SRC, "src", "model", "meson.build")).read()
    block = text[text.index("player_weight_sets = ["):]
    block = block[:block.index("\n]")]
    return {int(v): int(h, 16) for v, h in re.findall(r"\[(\d+), '([0-9a-f]{16})'\]", block)}


def generate(files, pins, out):
    args = [sys.executable, SCRIPT, out] + ["--pin=%d:%016x" % p for p in pins.items()] + files
    return subprocess.run(args, capture_output=True, text=True)


def main():
    files = {int(re.search(r"-v(\d+)\.txt$", f).group(1)): os.path.join(DATA, f)
             for f in os.listdir(DATA) if re.match(r"weights-v\d+\.txt$", f)}
    pins = meson_pins()
    check(sorted(files) == sorted(pins), "every weights file has a pin in src/model/meson.build and every pin a "
          "file: files %s, pins %s" % (sorted(files), sorted(pins)))
    for v in sorted(set(files) & set(pins)):
        h = pm_weights.fnv1a(open(files[v], "rb").read())
        check(h == pins[v], "weights-v%d.txt has FNV-1a 64 %016x, pinned %016x" % (v, h, pins[v]))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "player_weights.c")
        shuffled = [files[v] for v in sorted(files, reverse=True)]
        gen = generate(shuffled, pins, out)
        check(gen.returncode == 0, "the real files compile into C: %s" % gen.stderr)
        if gen.returncode == 0:
            text = open(out).read()
            versions = [int(v) for v in re.findall(r"\.version = (\d+),", text)]
            check(versions == sorted(files), "the sets in version order: %s" % versions)
            cc = subprocess.run([CC, "-std=c17", "-c", "-o", os.path.join(tmp, "w.o"), "-I", os.path.join(SRC, "src"),
                                 "-I", os.path.join(SRC, "include"), out], capture_output=True, text=True) if CC else None
            check(cc is None or cc.returncode == 0, "the compiler accepts it: %s" % (cc.stderr[-300:] if cc else ""))

        # one byte changed in a comment line of the newest set (the weights' own hash line
        # does not cover comments; the pin does)
        newest = max(files)
        text = open(files[newest], "rb").read()
        changed = os.path.join(tmp, "weights-v%d.txt" % newest)
        at = text.index(b"#") + 2
        open(changed, "wb").write(text[:at] + (b"X" if text[at:at + 1] != b"X" else b"Y") + text[at + 1:])
        gen = generate([files[v] for v in sorted(files) if v != newest] + [changed], pins, out)
        check(gen.returncode != 0 and changed in gen.stderr and "version %d froze" % newest in gen.stderr,
              "a changed file fails the build: %s" % gen.stderr.strip())

        unpinned = dict(pins)
        del unpinned[newest]
        gen = generate([files[v] for v in sorted(files)], unpinned, out)
        check(gen.returncode != 0 and "version %d has no pin" % newest in gen.stderr,
              "a set without a pin is refused: %s" % gen.stderr.strip())

        gen = generate([files[v] for v in sorted(files) if v != newest], pins, out)
        check(gen.returncode != 0 and "differ" in gen.stderr, "a pin without its file is refused: %s" % gen.stderr.strip())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
