#!/usr/bin/env python3
"""zstd's habits, end to end on corpus games: a reader that goes
away ends the program quietly (as SIGPIPE ends zstd); a console as stdin is refused
(through a pseudo-terminal); -q and -k are taken by every command; -l prints one line
per archive; the summary never says "-1 bytes" and counts unreadable inputs; a missing
input starts no engine; progress shows an ETA for compressed inputs, stdin and
decompress; two inputs that map to one output are refused before anything is written."""
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from harness import check, corpus, run, summary, use

UCIZIP = os.path.abspath(sys.argv[1])
use(UCIZIP)
FAST = ["-j", "2"]
# The archives these habits are shown on are coded with the built-in oracle (no engine
# start-up); the progress and ETA runs keep the real Stockfish: they must last a while.
BUILTIN = [*FAST, "--engine", "builtin"]


def broken_pipe(tmp, archive):
    # The reader is gone before the first byte is written: zstd dies of SIGPIPE, silently.
    r, w = os.pipe()
    p = subprocess.Popen([UCIZIP, "decompress", "-c", archive], stdout=w, stderr=subprocess.PIPE)
    os.close(w)
    os.close(r)
    err = p.communicate()[1]
    check(p.returncode == -signal.SIGPIPE, f"decompress -c into a closed pipe: killed by SIGPIPE ({p.returncode})")
    check(err == b"", "decompress -c into a closed pipe says nothing: %r" % err[:200])
    # `| head -1` as a user types it, beside zstd's own status for the same.
    big = corpus("cat3_tcec_engine_games_full_comments.pgn")
    shutil.copy(big, os.path.join(tmp, "big.pgn"))
    subprocess.run(["zstd", "-q", "-f", os.path.join(tmp, "big.pgn")], check=True)
    script = ('zstd -dc big.pgn.zst | head -1 >/dev/null; z=${PIPESTATUS[0]}; '
              f'"{UCIZIP}" pgn big.pgn 2>err | head -1 >/dev/null; echo "$z ${{PIPESTATUS[0]}}"')
    out = subprocess.run(["bash", "-c", script], cwd=tmp, capture_output=True, text=True).stdout.split()
    check(len(out) == 2 and out[0] == out[1] == "141", f"| head -1: zstd and ucizip exit alike (141): {out}")
    check(os.path.getsize(os.path.join(tmp, "err")) == 0, "ucizip pgn | head -1: no message")


def console_stdin(archive):
    """decompress and verify with a terminal as stdin (a pseudo-terminal) refuse."""
    for args in (["decompress"], ["decompress", "-c", "-"], ["verify", "-"], ["-d", "-c"]):
        master, slave = pty.openpty()
        p = subprocess.run([UCIZIP, *args], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        os.close(slave)
        os.close(master)
        check(p.returncode == 1 and b"stdin is a console" in p.stderr,
              f"{' '.join(args)} from a terminal refused: {p.returncode} {p.stderr[:200]!r}")
    # A pipe is fine.
    with open(archive, "rb") as f:
        p = subprocess.run([UCIZIP, "decompress", "-c", *FAST], stdin=f, capture_output=True)
    check(p.returncode == 0 and p.stdout.startswith(b"["), "decompress from a piped stdin still works")


def quiet_and_keep(tmp, pgn, archive):
    """-q and -k in every command (combined with other short options too)."""
    shards = os.path.join(tmp, "shards")
    cases = [
        ["-tq", archive], ["-tkq", archive], ["verify", "-q", "-k", archive], ["info", "-kq", archive],
        ["list", "-kq", archive], ["ratings", "-q", "-k", pgn], ["pgn", "-kq", pgn],
        ["extract", "-kq", archive, "--game", "2"], ["stats", "-kq", "--no-engine", pgn],
        ["explain", "-kq", pgn, "--game", "1"], ["engine", "-kq", "--positions", "1"],
        ["split", "-kq", pgn, "--shards", "2", "--output-dir", shards],
        ["decompress", "-kqc", archive], ["-dkqc", archive], ["-lq", archive],
    ]
    for args in cases:
        p = run(*args, ok=False)
        check(p.returncode == 0, f"{' '.join(args)}: accepted ({p.returncode}: {p.stderr[:200]!r})")
        if args[0] in ("-tq", "-tkq") or args[:2] == ["verify", "-q"]:
            check(p.stdout == b"" and p.stderr == b"", f"{args[0]}: quiet on success ({p.stdout!r} {p.stderr!r})")
    check(os.path.exists(archive) and os.path.exists(pgn), "-k kept every input")
    # -k is --keep everywhere: --keep-going is the long option alone.
    bad = os.path.join(tmp, "bad.pgn")
    with open(pgn, "rb") as f:
        good = f.read()
    with open(bad, "wb") as f:
        f.write(b'[Event "x"]\n\n1. e4 e5 2. Ke3 *\n\n' + good)
    stopped = run("pgn", "-k", bad, ok=False)
    skipped = run("pgn", "--keep-going", bad, ok=False)
    check(stopped.returncode != 0 and b"[Event " not in stopped.stdout and
          skipped.stdout.count(b"[Event ") == good.count(b"[Event "),
          "pgn: -k stops at the bad game (it keeps inputs), --keep-going skips it")


def list_table(tmp, archives):
    """-l: zstd's table, one line per archive and a total line."""
    p = run("-l", *archives)
    lines = p.stdout.decode().splitlines()
    check(lines and lines[0].split() == ["Members", "Blocks", "Games", "Moves", "Compressed", "Bits/move",
                                         "Filename"], "-l: the header line")
    total_games = 0
    for path, line in zip(archives, lines[1:]):
        info = run("info", "--json", path).stdout.decode()
        games = int(re.search(r'"games":\s*(\d+)', info).group(1))
        total_games += games
        cols = line.split()
        check(cols[0] == "1" and int(cols[2]) == games and cols[-1] == path, f"-l: {path}: {line}")
    size = sum(os.path.getsize(a) for a in archives)
    check(len(lines) == len(archives) + 3 and lines[-1].split()[2] == str(total_games) and
          lines[-1].endswith(f"{len(archives)} files"), "-l: the total line: " + lines[-1])
    check(re.search(r"\d KiB", lines[-1]) is not None or size < 1024, "-l: sizes as zstd writes them")


def summary_and_missing(tmp, pgn):
    out = os.path.join(tmp, "one.ucz")
    p = run("compress", "-c", *BUILTIN, pgn)
    check(b"-1 bytes" not in p.stderr and b"<stdout>" in p.stderr, "summary for stdout: %r" % p.stderr[-300:])
    # A missing input starts no engine: the only message is about the file.
    p = run("compress", "--engine", "/nonexistent/engine", os.path.join(tmp, "missing.pgn"), ok=False)
    check(p.returncode == 1 and b"missing.pgn" in p.stderr and b"/nonexistent/engine" not in p.stderr,
          "a missing input is reported before any engine starts: %r" % p.stderr)
    p = run("compress", "-o", out, pgn, os.path.join(tmp, "missing.pgn"), ok=False)
    check(p.returncode == 1 and not os.path.exists(out), "-o with a missing input writes nothing")
    # The summary's counts with a missing input among others.
    copy = os.path.join(tmp, "copy.pgn")
    shutil.copy(pgn, copy)
    p = run("compress", "-f", *BUILTIN, copy, os.path.join(tmp, "missing.pgn"), ok=False)
    err = p.stderr.decode()
    check(p.returncode == 1 and "1 of 2 outputs written" in err and "1 unreadable or damaged inputs" in err and
          "0 refused arguments" in err and os.path.exists(copy + ".ucz"), "summary counts: " + err[-400:])


def first_progress(args, stdin=None):
    p = subprocess.run([UCIZIP, *args, "--progress"], stdin=stdin, capture_output=True)
    lines = [x for x in re.split(rb"[\r\n]", p.stderr) if b"plies" in x]
    return p.returncode, lines


def progress_eta(tmp, pgn):
    """An ETA (and a share read that follows the games) for a compressed input, stdin
    redirected from a file, and decompress."""
    zst = os.path.join(tmp, "eta.pgn.zst")
    subprocess.run(["zstd", "-q", "-f", pgn, "-o", zst], check=True)
    rc, lines = first_progress(["compress", *FAST, "--block-games", "5", "-f", "-o", os.path.join(tmp, "e1.ucz"),
                                zst])
    first = re.search(rb"([\d.]+)% read, ETA", lines[0]) if lines else None
    check(rc == 0 and first and float(first.group(1)) < 60, f"compressed input: {lines[:1]}")
    with open(pgn, "rb") as f:
        rc, lines = first_progress(["compress", *FAST, "--block-games", "5", "-f", "-o", os.path.join(tmp, "e2.ucz")],
                                   stdin=f)
    check(rc == 0 and lines and b"ETA" in lines[0], f"stdin from a file: {lines[:1]}")
    rc, lines = first_progress(["decompress", *FAST, "-f", "-o", os.path.join(tmp, "e.pgn"),
                                os.path.join(tmp, "e1.ucz")])
    check(rc == 0 and lines and b"ETA" in lines[0], f"decompress: {lines[:1]}")


def one_output_two_inputs(tmp, pgn):
    """Two inputs that map to one output: refused before anything is written, whatever
    the flags (22.3)."""
    work = os.path.join(tmp, "clash")
    for d in ("a", "b"):
        os.makedirs(os.path.join(work, d))
        shutil.copy(pgn, os.path.join(work, d, "x.pgn"))
    p = run("compress", "-r", "--output-dir", "OUT", "-f", "--rm", "--engine", "/nonexistent/engine", "a", "b",
            cwd=work, ok=False)
    err = p.stderr.decode()
    check(p.returncode != 0 and "a/x.pgn" in err and "b/x.pgn" in err and "/nonexistent" not in err,
          "two x.pgn into one --output-dir refused: " + err)
    check(os.path.exists(os.path.join(work, "a", "x.pgn")) and os.path.exists(os.path.join(work, "b", "x.pgn")) and
          not os.listdir(os.path.join(work, "OUT")), "both inputs kept, nothing written")
    # The same place spelled two ways, and x.pgn beside x.pgn.zst.
    subprocess.run(["zstd", "-q", os.path.join(work, "a", "x.pgn")], check=True)
    for args in (["a/x.pgn", "./a/x.pgn"], ["a/x.pgn", "a/x.pgn.zst"]):
        p = run("compress", "-f", "--rm", *args, cwd=work, ok=False)
        check(p.returncode != 0 and b"would both be written" in p.stderr and
              not os.path.exists(os.path.join(work, "a", "x.pgn.ucz")), f"{args} refused: {p.stderr!r}")
    # decompress --output-dir the same way.
    for d in ("a", "b"):
        run("compress", *BUILTIN, "-f", "-o", os.path.join(work, d, "x.pgn.ucz"), os.path.join(work, d, "x.pgn"))
    p = run("decompress", "--output-dir", "PGN", "-f", "--rm", "a/x.pgn.ucz", "b/x.pgn.ucz", cwd=work, ok=False)
    check(p.returncode != 0 and b"would both be written" in p.stderr and not os.listdir(os.path.join(work, "PGN"))
          and os.path.exists(os.path.join(work, "b", "x.pgn.ucz")), "decompress: two x.pgn.ucz refused")
    # Distinct names still work, with --rm.
    os.rename(os.path.join(work, "b", "x.pgn"), os.path.join(work, "b", "y.pgn"))
    p = run("compress", "-r", "--output-dir", "OUT", *BUILTIN, "-f", "--rm", "a/x.pgn", "b/y.pgn", cwd=work)
    check(sorted(os.listdir(os.path.join(work, "OUT"))) == ["x.pgn.ucz", "y.pgn.ucz"], "distinct outputs written")


def main():
    tmp = tempfile.mkdtemp(prefix="ucizip-habits-")
    try:
        pgn = os.path.join(tmp, "clk.pgn")
        shutil.copy(corpus("cat1_chesscom_live_clk.pgn"), pgn)
        archive = os.path.join(tmp, "clk.ucz")
        run("compress", *BUILTIN, "-o", archive, pgn)
        other = os.path.join(tmp, "marathon.ucz")
        run("compress", *BUILTIN, "-o", other, corpus("cat1_lichess_marathon_2025.pgn"))
        broken_pipe(tmp, archive)
        console_stdin(archive)
        quiet_and_keep(tmp, pgn, archive)
        list_table(tmp, [archive, other])
        summary_and_missing(tmp, pgn)
        progress_eta(tmp, corpus("cat1_lichess_marathon_2025.pgn"))
        one_output_two_inputs(tmp, pgn)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
