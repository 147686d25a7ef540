#!/usr/bin/env python3
"""Fault-injecting UCI engine for the engine bridge tests.

It proxies the real Stockfish and breaks the conversation on purpose. The fault is
read from $FAKE_DIR/conf ("MODE N") at start-up and before every "go"; every "go" of
every process appends one byte to $FAKE_DIR/gos, so N counts searches across
restarts (a fault "at" N happens once, "from" N keeps happening).

Modes: none, crash_at, crash_from, hang_at, hang_from, hang_every (every Nth search hangs:
an engine that hangs now and then), garbage_at, badinfo_at,
drop_at, illegal_at, illegal_best_at, bound_at, long_line_at, slow_start (N ms),
exit_handshake, not_uci, jitter_from (adds the search's number to every centipawn score,
so that no two searches of a position agree: a nondeterministic engine), process_offset
(adds the number of this process, counted in $FAKE_DIR/procs, to every centipawn score:
each process is deterministic, two processes disagree), no_chess960 (hides
the UCI_Chess960 option: an engine without Chess960).
"""
import fcntl
import os
import re
import subprocess
import sys
import threading
import time

FAKE_DIR = os.environ.get("FAKE_DIR", ".")
STOCKFISH = os.environ.get("FAKE_STOCKFISH", "/usr/games/stockfish")


def conf():
    try:
        with open(os.path.join(FAKE_DIR, "conf")) as f:
            parts = f.read().split()
        return parts[0], int(parts[1]) if len(parts) > 1 else 0
    except (OSError, ValueError, IndexError):
        return "none", 0


def count_go():
    return count_file("gos")


def count_file(name):
    # The lock makes append-then-size one step, so that with several processes every
    # count is seen by exactly one of them.
    fd = os.open(os.path.join(FAKE_DIR, name), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, b".")
        return os.fstat(fd).st_size
    finally:
        os.close(fd)


out_lock = threading.Lock()


def emit(text):
    with out_lock:
        sys.stdout.write(text)
        sys.stdout.flush()


def hang():
    while True:
        time.sleep(3600)


state = {"fault": None, "depth": 0, "go": 0}


def filter_line(line):
    """Applies the fault of the current search to one engine output line."""
    fault, depth = state["fault"], state["depth"]
    if state.get("no_chess960") and line.startswith("option name UCI_Chess960 "):
        return None
    m = re.match(r"info depth (\d+) .*multipv (\d+) score", line)
    final = m is not None and int(m.group(1)) == depth
    if fault == "garbage_at" and m:
        state["fault"] = None
        return "info depth \x01\x02\x03 garbage\x07\n"
    if fault == "badinfo_at" and m:
        state["fault"] = None
        return re.sub(r"score (cp|mate) -?\d+", "score cp abc", line)
    if fault == "long_line_at" and m:
        state["fault"] = None
        return "info string " + "x" * (2 << 20) + "\n"
    if final and fault == "drop_at" and m.group(2) == "2":
        return None
    if final and fault == "illegal_at" and m.group(2) == "1":
        return re.sub(r" pv \S+", " pv a1a1", line)
    if final and fault == "bound_at" and m.group(2) == "1":
        return re.sub(r"(score (cp|mate) -?\d+)", r"\1 lowerbound", line)
    if state.get("offset") and m:
        return re.sub(r"score cp (-?\d+)", lambda c: "score cp %d" % (int(c.group(1)) + state["offset"]), line)
    if fault == "jitter_from" and m:
        return re.sub(r"score cp (-?\d+)", lambda c: "score cp %d" % (int(c.group(1)) + state["go"]), line)
    if line.startswith("bestmove") and fault == "illegal_best_at":
        return "bestmove a1a1\n"
    return line


def pump(engine):
    for line in engine.stdout:
        line = filter_line(line)
        if line is not None:
            emit(line)


def main():
    mode, n = conf()
    state["no_chess960"] = mode == "no_chess960"
    if mode == "process_offset":
        state["offset"] = count_file("procs")
    if mode == "slow_start":
        time.sleep(n / 1000.0)
    if mode == "not_uci":
        emit("Hello, I am not a chess engine.\n")
        for _ in sys.stdin:
            pass
        hang()
    engine = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    threading.Thread(target=pump, args=(engine,), daemon=True).start()
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "uci" and mode == "exit_handshake":
            emit("id name Fake\n")
            sys.stderr.write("fake: cannot load the network file\n")
            sys.stderr.flush()
            os._exit(3)
        if cmd.startswith("go"):
            mode, n = conf()
            k = count_go()
            m = re.search(r"depth (\d+)", cmd)
            state["depth"] = int(m.group(1)) if m else 0
            state["fault"] = None
            state["go"] = k
            hit = (mode.endswith("_at") and k == n) or (mode.endswith("_from") and k >= n) or \
                (mode.endswith("_every") and n > 0 and k % n == 0)
            if hit and mode.startswith("crash"):
                os._exit(1)
            if hit and mode.startswith("hang"):
                hang()
            if hit:
                state["fault"] = mode
        if cmd == "quit":
            engine.stdin.write("quit\n")
            engine.stdin.flush()
            engine.wait()
            return
        engine.stdin.write(line)
        engine.stdin.flush()
    engine.kill()


if __name__ == "__main__":
    main()
