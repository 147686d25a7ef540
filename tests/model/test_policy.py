#!/usr/bin/env python3
"""The policy over the board (src/model/policy.c) against the reference of its integer
arithmetic (scripts/policy_net.py): the same logit, bit for bit, for every legal move of
every position of real corpus games (amateur online games, and Chess960 games for the
king-takes-rook castling keys), and the logits' hash pinned, so that the C and the
reference cannot drift together. scripts/test_compilers.sh runs it under other compilers
and flags. Then the build's check of the data file: the pin in src/model/meson.build is
the file's hash, and a file with one byte changed is refused.
Usage: test_policy.py UCIZIP_FEATURES"""
import os
import re
import subprocess
import sys
import tempfile

SRC = os.environ["UZ_SRC_ROOT"]
CORPUS = os.environ["UZ_CORPUS_DIR"]
sys.path.insert(0, os.path.join(SRC, "tests", "cli"))
sys.path.insert(0, os.path.join(SRC, "scripts"))
from harness import check, summary  # noqa: E402
from fnv1a import fnv1a64  # noqa: E402

SCRIPT = os.path.join(SRC, "scripts", "policy_net.py")
BIN = os.path.join(SRC, "data", "policy", "v1.bin")
FILES = ["cat1_chesscom_live_clk", "cat1_lichess_marathon_2025", "cat5_chess960_cutechess_python_chess"]
# What the reference gives on FILES (positions, moves, FNV-1a 64 of the logits in order).
GOLDEN = "4531 positions, 131816 moves, logits FNV-1a 64 4e0ceb861ed21c34, 0 positions differ"


def main():
    features = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        prefixes = []
        for name in FILES:
            prefix = os.path.join(tmp, name)
            r = subprocess.run([features, os.path.join(CORPUS, name + ".pgn"), "--boards-only", "--policy", "1",
                                "--out", prefix], capture_output=True, text=True)
            check(r.returncode == 0, "ucizip-features %s: %s" % (name, r.stderr))
            prefixes.append(prefix)
        r = subprocess.run([sys.executable, SCRIPT, "check", BIN] + prefixes, capture_output=True, text=True)
        check(r.returncode == 0 and r.stdout.strip() == GOLDEN,
              "the C logits are the reference's, golden hash: %s%s" % (r.stdout, r.stderr))

        text = open(os.path.join(SRC, "src", "model", "meson.build")).read()
        pin = re.search(r"policy_net.py', 'c',\s*'@INPUT@', '@OUTPUT@', '--pin', '([0-9a-f]{16})'", text)
        data = open(BIN, "rb").read()
        check(pin is not None and int(pin.group(1), 16) == fnv1a64(data),
              "src/model/meson.build pins data/policy/v1.bin by its hash")
        out = os.path.join(tmp, "policy1.c")
        if pin:
            r = subprocess.run([sys.executable, SCRIPT, "c", BIN, out, "--pin", pin.group(1)], capture_output=True,
                               text=True)
            check(r.returncode == 0 and "const uz_policy_net uz__policy_v1" in open(out).read(),
                  "the real file compiles into C: %s" % r.stderr)
            changed = os.path.join(tmp, "v1.bin")
            at = len(data) // 2
            open(changed, "wb").write(data[:at] + bytes([data[at] ^ 1]) + data[at + 1:])
            r = subprocess.run([sys.executable, SCRIPT, "c", changed, out, "--pin", pin.group(1)], capture_output=True,
                               text=True)
            check(r.returncode != 0 and "a changed policy is a new policy version" in r.stderr,
                  "a changed file fails the build: %s" % r.stderr.strip())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
