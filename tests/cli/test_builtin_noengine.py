#!/usr/bin/python3
"""Longevity: a builtin archive decodes on a machine where no UCI engine can be reached,
and the test proves that none can. The decoder runs in a private mount namespace
(unshare -m, as root) with an empty directory mounted over /usr/games, PATH holding no
engine and UZ_ENGINES_DIR empty; inside, the script first checks that neither stockfish nor
ethereal can be found or run (and that a Stockfish archive is refused there), then decodes
the builtin archives: one made here and the committed builtin-1 to builtin-3 fixtures.
Skipped (77) only where the namespace cannot be made (not root, or unshare not permitted).

Usage: test_builtin_noengine.py UCIZIP"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, corpus, run, summary, use  # noqa: E402

UNSHARE = "/usr/bin/unshare"

# Runs inside the namespace: $1 program, $2 empty dir, $3 output dir, $4 Stockfish
# archive, then builtin archives. Exit 90+ says which proof failed.
INSIDE = r'''
uz=$1 empty=$2 out=$3 sf=$4; shift 4
/usr/bin/mount --bind "$empty" /usr/games || exit 90
for e in stockfish ethereal-chess Ethereal /usr/games/stockfish /usr/games/ethereal-chess /usr/bin/stockfish; do
    if command -v "$e" >/dev/null 2>&1 || [ -e "$e" ]; then echo "an engine is reachable: $e"; exit 91; fi
done
if "$uz" engine --engine stockfish >/dev/null 2>&1; then echo "ucizip started stockfish"; exit 92; fi
if "$uz" decompress "$sf" -o "$out/sf.pgn" 2>/dev/null; then echo "a Stockfish archive decoded"; exit 93; fi
n=0
for arc in "$@"; do
    n=$((n + 1))
    "$uz" decompress "$arc" -o "$out/$n.pgn" -j 2 || exit 94
done
echo "decoded $n builtin archives with no engine reachable"
'''


def main():
    use(sys.argv[1])
    uz = os.path.abspath(sys.argv[1])
    if os.geteuid() != 0 or not os.path.exists(UNSHARE) or \
            subprocess.run([UNSHARE, "-m", "/bin/true"], capture_output=True).returncode != 0:
        print("skipped: a private mount namespace (unshare -m, as root) is not permitted here")
        return 77
    tmp = tempfile.mkdtemp(prefix="uz-noengine-")
    empty, outdir, bindir = (os.path.join(tmp, d) for d in ("empty", "out", "bin"))
    for d in (empty, outdir, bindir):
        os.mkdir(d)
    # Archives made outside: a Stockfish one (must be refused inside) and a builtin one.
    src = os.path.join(tmp, "games.pgn")
    with open(corpus("cat2_tata_steel_2022_masters.pgn"), "rb") as f:
        games = f.read().split(b"\n[Event ")
    with open(src, "wb") as f:
        f.write(b"\n[Event ".join(games[:4]) + b"\n")
    sf, made = os.path.join(tmp, "sf.ucz"), os.path.join(tmp, "builtin.ucz")
    run("compress", src, "-o", sf, "-q", "-j", "1")
    run("compress", src, "-o", made, "-q", "--engine", "builtin")
    pairs = [(made, src)]
    data = os.path.join(os.environ.get("UZ_TEST_DATA", ""), "builtin")
    for name in ("fixture_builtin1.ucz", "fixture_builtin2.ucz", "fixture_builtin1_v5.ucz", "fixture_builtin2_v6.ucz",
                 "fixture_builtin1_v7.ucz", "fixture_builtin2_v8.ucz", "fixture_builtin1_v9.ucz",
                 "fixture_builtin2_v10.ucz", "fixture_builtin1_d2_v9.ucz", "fixture_builtin2_d2_v10.ucz",
                 "fixture_builtin1_d2_v11.ucz", "fixture_builtin2_d2_v12.ucz", "fixture_builtin3_v13.ucz",
                 "fixture_builtin3_d2_v12.ucz", "fixture_builtin1_v9_book1.ucz", "fixture_builtin1_v16.ucz"):
        fixture = os.path.join(data, name)
        check(os.path.exists(fixture), "no fixture %s" % fixture)
        if os.path.exists(fixture):
            pairs.append((fixture, os.path.join(data, "fixture_builtin1.pgn")))
    env = {"PATH": bindir, "UZ_ENGINES_DIR": empty, "HOME": tmp}
    p = subprocess.run([UNSHARE, "-m", "/bin/sh", "-c", INSIDE, "inside", uz, empty, outdir, sf] +
                       [a for a, _ in pairs], capture_output=True, env=env)
    check(p.returncode == 0, "inside the namespace: exit %d: %s %s" % (p.returncode, p.stdout.decode(),
                                                                       p.stderr.decode()))
    for n, (_, pgn) in enumerate(pairs, 1):
        got = os.path.join(outdir, "%d.pgn" % n)
        with open(pgn, "rb") as f:
            want = f.read()
        check(os.path.exists(got) and open(got, "rb").read() == want, "%s: decoded without engines, not its games" % pgn)
    print(p.stdout.decode().strip())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
