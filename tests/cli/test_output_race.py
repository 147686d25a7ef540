#!/usr/bin/env python3
"""Two runs to one output name (doc/safety.md rule 4): the name is checked when a run
starts and again, atomically, when its output is moved there. A run whose name was taken
while it wrote (by another run) fails with exit 1, replaces nothing, keeps its complete
output as OUT.PID.kept and removes none of its inputs (--rm); with -f it replaces.

Deterministic: the first run reads its last input from a pipe the test holds open, so
the second run starts and finishes between the first run's check and its final step."""
import os
import re
import subprocess
import sys
import tempfile
import time

import harness
from harness import check, corpus, run, summary

BUILTIN = ["--engine", "builtin", "--workers", "1"]  # the subject is the file, not the engine


def started(d, name, proc):
    """Waits until proc has made its temporary file for name (its name check is done)."""
    deadline = time.time() + 120
    while proc.poll() is None and time.time() < deadline:
        if any(re.fullmatch(re.escape(name) + r"\.%d\.tmp" % proc.pid, n) for n in os.listdir(d)):
            return True
        time.sleep(0.02)
    return False


def kept_name(d, name, proc):
    return os.path.join(d, "%s.%d.kept" % (name, proc.pid))


def compress_race(d, a, b, c):
    """compress A - -o o.ucz --rm (stdin held), then compress B -o o.ucz --rm to the end,
    then stdin is fed: the first run must fail and keep A."""
    out = os.path.join(d, "o.ucz")
    ra, rb = os.path.join(d, "ra.pgn"), os.path.join(d, "rb.pgn")
    for src, dst in ((a, ra), (b, rb)):
        open(dst, "wb").write(open(src, "rb").read())
    first = subprocess.Popen([harness.UCIZIP, "compress", ra, "-", "-o", out, "--rm", *BUILTIN],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    check(started(d, "o.ucz", first), "the first run started writing")
    second = run("compress", rb, "-o", out, "--rm", *BUILTIN)
    check(second.returncode == 0 and not os.path.exists(rb), "the second run wrote o.ucz and removed its input")
    _, err = first.communicate(open(c, "rb").read())
    err = err.decode(errors="replace")
    print("compress race -> exit %d: %s" % (first.returncode, err.strip()))
    check(first.returncode == 1, "the late run exits 1: %d" % first.returncode)
    check("appeared while this run was writing" in err and "kept as" in err, "the late run says why: " + err)
    check(os.path.exists(ra) and open(ra, "rb").read() == open(a, "rb").read(),
          "--rm left the late run's input alone")
    dec = run("decompress", out, "-c")
    check(dec.stdout == open(b, "rb").read(), "o.ucz still holds the second run's games")
    kept = kept_name(d, "o.ucz", first)
    check(os.path.exists(kept), "the late run's output is kept as " + kept)
    if os.path.exists(kept):
        dec = run("decompress", kept, "-c")
        check(dec.stdout == open(a, "rb").read() + open(c, "rb").read(), "the kept output holds the late run's games")
    # A later run to the same name (with -f) does not sweep the kept output away.
    run("compress", b, "-o", out, "-f", *BUILTIN)
    check(os.path.exists(kept), "a later run with -f removed the kept output")


def decompress_race(d, archive, expect):
    """decompress - -o same.pgn twice at once: the late one fails, same.pgn is the other's."""
    out = os.path.join(d, "same.pgn")
    first = subprocess.Popen([harness.UCIZIP, "decompress", "-", "-o", out],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    check(started(d, "same.pgn", first), "the first decompress started writing")
    run("decompress", archive, "-o", out)
    before = open(out, "rb").read()
    _, err = first.communicate(open(archive, "rb").read())
    err = err.decode(errors="replace")
    print("decompress race -> exit %d: %s" % (first.returncode, err.strip()))
    check(first.returncode == 1 and "appeared while this run was writing" in err, "the late decompress fails: " + err)
    check(open(out, "rb").read() == before == expect, "same.pgn is the other run's output")
    kept = kept_name(d, "same.pgn", first)
    check(os.path.exists(kept) and open(kept, "rb").read() == expect, "the late decompress kept its output")


def forced_race(d, archive, expect):
    """With -f the late run replaces what appeared (the user asked for it)."""
    out = os.path.join(d, "forced.pgn")
    first = subprocess.Popen([harness.UCIZIP, "decompress", "-", "-o", out, "-f"],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    check(started(d, "forced.pgn", first), "the forced decompress started writing")
    open(out, "wb").write(b"in the way\n")
    _, err = first.communicate(open(archive, "rb").read())
    check(first.returncode == 0 and open(out, "rb").read() == expect, "-f replaces: %s" % err)
    check(not os.path.exists(kept_name(d, "forced.pgn", first)), "-f keeps no second copy")


def main():
    harness.use(sys.argv[1])
    text = open(corpus("cat2_capablanca_crlf.pgn"), "rb").read()
    starts = [m.start() for m in re.finditer(rb"\[Event ", text)]
    with tempfile.TemporaryDirectory() as d:
        a, b, c = (os.path.join(d, n) for n in ("a.pgn", "b.pgn", "c.pgn"))
        open(a, "wb").write(text[starts[0]:starts[2]])
        open(b, "wb").write(text[starts[2]:starts[6]])
        open(c, "wb").write(text[starts[6]:starts[7]])
        compress_race(d, a, b, c)
        archive = os.path.join(d, "b.ucz")
        run("compress", b, "-o", archive, *BUILTIN)
        expect = open(b, "rb").read()
        decompress_race(d, archive, expect)
        forced_race(d, archive, expect)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
