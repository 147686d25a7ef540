#!/usr/bin/env python3
"""Batch conversion benchmark: plies/s at -j1 and -j2 and their ratio, the bridge's
overhead against a plain driver sending the same positions straight to the same number
of Stockfish processes (clear, isready, position, go depth 1), peak memory at 1x and
10x the input, the persistent cache cold vs warm, and the 4-shard Slurm run against
-j2 on one machine (when SLURM_CONF points at a cluster, e.g. scripts/slurm-local.sh).

    scripts/bench_batch.py [--games 2000] [--ucizip build/ucizip] [--skip-slurm] [--repeat R]

The input is made of the first N games of the Lichess corpus files (standard starts, no
variations, so the plain driver sees exactly the positions ucizip scores)."""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
SOURCES = ["cat1_lichess_rated_blitz_rapid.pgn", "cat1_lichess_casual_humans_vs_ai_level5.pgn"]
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"


def make_input(path, games):
    """First `games` games of the sources, as whole games."""
    out, n = [], 0
    for name in SOURCES:
        text = open(os.path.join(CORPUS, name), "rb").read().replace(b"\r\n", b"\n")
        for g in re.split(rb"\n\n(?=\[Event )", text):
            if n == games:
                break
            out.append(g.strip() + b"\n")
            n += 1
    with open(path, "wb") as f:
        f.write(b"\n".join(out))
    return n


def timed(cmd):
    """Runs cmd; returns (seconds, peak RSS of the child tree in MB, stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr))
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return secs, max(rss, before) / 1024.0, p.stderr


def peak_rss_mb(cmd):
    """Peak resident memory of the ucizip process itself, engines not included: its
    VmHWM, read from /proc while it runs (the last reading before it exits)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    hwm = 0
    while p.poll() is None:
        try:
            with open("/proc/%d/status" % p.pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        hwm = max(hwm, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.02)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr.read().decode()))
    return hwm / 1024.0


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 1")
        self.multipv = 1

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("stockfish died")
            if line.startswith(prefix):
                return line

    def close(self):
        self.send("quit")
        self.p.wait()


def positions_of(pgn_path, ucizip):
    """Distinct positions (FEN with fullmove 1) with two or more legal moves along the
    main lines, as ucizip sends them, with their number of legal moves."""
    lines = subprocess.run([ucizip, "pgn", "--uci", pgn_path], capture_output=True, text=True).stdout.splitlines()
    e = Engine()
    seen, out = set(), []
    for line in lines:
        start, moves = "startpos", line.split()
        if line.startswith("fen "):  # a set-up start: "fen FEN moves M..."
            fen0, _, rest = line[4:].partition(" moves ")
            start, moves = "fen " + fen0, rest.split()
        for k in range(len(moves) + 1):
            e.send("position %s moves %s" % (start, " ".join(moves[:k])))
            e.send("d")
            fen = e.wait("Fen:").split(":", 1)[1].strip()
            fen = fen.rsplit(" ", 1)[0] + " 1"
            if fen in seen:
                continue
            seen.add(fen)
            e.send("go perft 1")
            n = int(e.wait("Nodes searched").split(":")[1])
            if n >= 2:
                out.append((fen, n))
    e.close()
    return out


def build_plain_driver(tmp):
    """Compiles scripts/plain_uci_driver.c (C, poll() over pipes: no interpreter between
    the positions and the engines)."""
    exe = os.path.join(tmp, "plain_uci_driver")
    subprocess.run(["cc", "-O2", "-o", exe, os.path.join(ROOT, "scripts", "plain_uci_driver.c")], check=True)
    return exe


def plain_driver(exe, positions, n_engines, tmp, depth=1, clear=True):
    """Sends every position to whichever engine is free, with the bridge's commands
    (without ucinewgame when not clear); returns the driver's wall seconds (starting the
    engines included)."""
    path = os.path.join(tmp, "positions.txt")
    with open(path, "w") as f:
        for fen, n in positions:
            f.write("%d %s\n" % (n, fen))
    p = subprocess.run([exe, STOCKFISH, str(n_engines), str(depth), path] + ([] if clear else ["no-clear"]),
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("plain driver failed: " + p.stderr)
    return float(p.stdout.strip())


# The build tree's program finds this tree's engine profiles only through UZ_ENGINES_DIR.
os.environ.setdefault("UZ_ENGINES_DIR", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                     "engines"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--ucizip", default=os.path.join(ROOT, "build", "ucizip"))
    ap.add_argument("--skip-slurm", action="store_true")
    ap.add_argument("--repeat", type=int, default=1, help="rounds of ucizip and the plain driver, alternating")
    args = ap.parse_args()
    uz = os.path.abspath(args.ucizip)
    tmp = tempfile.mkdtemp(prefix="ucizip-bench-")
    src = os.path.join(tmp, "games.pgn")
    games = make_input(src, args.games)
    print("input: %d games, %d bytes; machine: %d cores, load %.1f at start" %
          (games, os.path.getsize(src), os.cpu_count(), os.getloadavg()[0]))

    # The engines' own limit: the same distinct positions, straight to the engines.
    pos = positions_of(src, uz)
    exe = build_plain_driver(tmp)
    print("plain driver (C): %d distinct positions with >= 2 legal moves" % len(pos))

    # ucizip and the plain driver alternate (A B A B ...), so a slow spell of the machine
    # hits both; the table gives medians over the rounds.
    times = {("uz", 1): [], ("uz", 2): [], ("plain", 1): [], ("plain", 2): []}
    plies, hits, same = None, "", True
    for r in range(args.repeat):
        for j in (1, 2):
            out = os.path.join(tmp, "j%d.ucz" % j)
            secs, _, err = timed([uz, "compress", src, "-o", out, "-f", "-v", "-j", str(j), "--depth", "1"])
            plies = int(re.search(r"(\d+) moves", err).group(1))
            m = re.search(r"cache hits ([\d.]+)% of (\d+) positions", err)
            hits = m.group(0) if m else hits
            times[("uz", j)].append(secs)
            times[("plain", j)].append(plain_driver(exe, pos, j, tmp))
        same = same and open(os.path.join(tmp, "j1.ucz"), "rb").read() == open(os.path.join(tmp, "j2.ucz"), "rb").read()
        print("round %d: ucizip -j1 %.1f s, plain 1 %.1f s, ucizip -j2 %.1f s, plain 2 %.1f s" %
              (r + 1, times[("uz", 1)][-1], times[("plain", 1)][-1], times[("uz", 2)][-1], times[("plain", 2)][-1]))

    med = {k: statistics.median(v) for k, v in times.items()}
    print("\n| run | wall s (median of %d) | plies/s | engines alone, same positions | bridge overhead |" % args.repeat)
    print("|---|---|---|---|---|")
    for j in (1, 2):
        print("| ucizip -j%d | %.1f | %.0f | %.1f s | %+.1f%% |" %
              (j, med[("uz", j)], plies / med[("uz", j)], med[("plain", j)], 100 * (med[("uz", j)] / med[("plain", j)] - 1)))
    if args.repeat > 1:
        pairs = [100 * (a / b - 1) for a, b in zip(times[("uz", 2)], times[("plain", 2)])]
        print("-j2 overhead round by round: " + ", ".join("%+.1f%%" % x for x in pairs))
    print("-j2 / -j1 speed: %.2fx (engines alone %.2fx); archives identical: %s; %s" %
          (med[("uz", 1)] / med[("uz", 2)], med[("plain", 1)] / med[("plain", 2)], same, hits))
    rows = [(j, med[("uz", j)]) for j in (1, 2)]
    # What the clear before every position (ucinewgame, which determinism needs) costs.
    nc = [plain_driver(exe, pos, j, tmp, clear=False) for j in (1, 2)]
    print("without ucinewgame (not deterministic, for comparison): 1 engine %.1f s, 2 engines %.1f s, %.2fx" %
          (nc[0], nc[1], nc[0] / nc[1]))

    cache = os.path.join(tmp, "scores.lmdb")
    cold, _, err_c = timed([uz, "compress", src, "-o", os.path.join(tmp, "c1.ucz"), "-f", "-v", "-j", "2",
                            "--cache", cache])
    warm, _, err_w = timed([uz, "compress", src, "-o", os.path.join(tmp, "c2.ucz"), "-f", "-v", "-j", "2",
                            "--cache", cache])
    hw = re.search(r"cache hits ([\d.]+)%", err_w).group(1)
    print("\ncache: cold %.1f s, warm %.1f s (%.1fx), warm hit rate %s%%" % (cold, warm, cold / warm, hw))

    # Memory at 1x and 10x the input. The 10x input is the input ten times over; both
    # are coded with the warm cache, so that the 10x run takes seconds, not an hour,
    # while reading, parsing, coding and writing all 10x the games.
    src10 = os.path.join(tmp, "games10.pgn")
    with open(src10, "wb") as f:
        data = open(src, "rb").read()
        for _ in range(10):
            f.write(data + b"\n")
    r_cold = peak_rss_mb([uz, "compress", src, "-o", os.path.join(tmp, "m0.ucz"), "-f", "-q", "-j", "2"])
    r1 = peak_rss_mb([uz, "compress", src, "-o", os.path.join(tmp, "m1.ucz"), "-f", "-q", "-j", "2",
                      "--cache", cache])
    r10 = peak_rss_mb([uz, "compress", src10, "-o", os.path.join(tmp, "m10.ucz"), "-f", "-q", "-j", "2",
                       "--cache", cache])
    print("\npeak RSS of ucizip (engines not included): %d games, engines searching %.1f MB; "
          "warm cache: %d games %.1f MB, %d games %.1f MB (%.2fx)" %
          (games, r_cold, games, r1, 10 * games, r10, r10 / r1))

    if not args.skip_slurm and os.environ.get("SLURM_CONF"):
        out = os.path.join(tmp, "slurm.ucz")
        t = time.time()
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts", "slurm-compress.sh"), src, out, "--shards", "4",
                            "--", "--depth", "1"], capture_output=True, text=True, env=dict(os.environ, UCIZIP=uz))
        secs = time.time() - t
        print("\nslurm, 4 shards (incl. split, merge and verify): %.1f s (%s); ucizip -j2: %.1f s" %
              (secs, "ok" if p.returncode == 0 else "FAILED " + p.stderr[-300:], rows[1][1]))
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
