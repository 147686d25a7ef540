#!/usr/bin/env python3
"""Batch conversion end to end on real corpus games: several inputs, compressed inputs
(each kind must give the archive of the plain file), output naming, identical bytes for
-j1/-j2/-j4 and the persistent cache with the real Stockfish, damaged inputs, the zstd-like
command line. The driver mechanics run with the built-in oracle (--engine builtin: no
engine start-up, a fraction of Stockfish's time per position); their subject is the driver,
not the oracle."""
import gzip
import bz2
import lzma
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from harness import check, corpus, run, summary, use

UCIZIP = sys.argv[1]
use(UCIZIP)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main():
    tmp = tempfile.mkdtemp(prefix="ucizip-batch-")
    fast = ["--depth", "1", "-j", "2"]                    # the real Stockfish
    quick = ["--engine", "builtin", "-j", "2"]             # the built-in oracle (depth 1)
    # slow enough that a kill lands mid-run (about 5 s of two cores for 200 games)
    slowish = ["--engine", "builtin", "--depth", "2", "-j", "2"]
    small = corpus("cat1_lichess_marathon_2025.pgn")      # 40 games
    other = corpus("cat1_chesscom_live_clk.pgn")          # 17 games
    raw = read(small)

    # Every compressed kind gives the archive of the plain file (one run, shared engines).
    kinds = {"plain": ("m.pgn", raw), "zstd": ("m.pgn.zst", None), "gzip": ("m.pgn.gz", gzip.compress(raw)),
             "bzip2": ("m.pgn.bz2", bz2.compress(raw)), "xz": ("m.pgn.xz", lzma.compress(raw))}
    indir = os.path.join(tmp, "in")
    os.mkdir(indir)
    for kind, (name, data) in kinds.items():
        if data is not None:
            write(os.path.join(tmp, name), data)
    subprocess.run(["zstd", "-q", "-19", os.path.join(tmp, "m.pgn"), "-o", os.path.join(tmp, "m.pgn.zst")],
                   check=True)
    shutil.copy(os.path.join(tmp, "m.pgn"), indir)
    os.mkdir(os.path.join(indir, "sub"))
    shutil.copy(os.path.join(tmp, "m.pgn.xz"), os.path.join(indir, "sub", "x.pgn.xz"))
    write(os.path.join(indir, "notes.txt"), b"not a PGN file: skipped by -r")
    # the names do not decide: a gzip file named .pgn is still read as gzip
    write(os.path.join(indir, "gz_named_plain.pgn"), gzip.compress(raw))
    outdir = os.path.join(tmp, "out")
    run("compress", "-r", indir, "--output-dir", outdir, *quick)
    plain_arc = read(os.path.join(outdir, "m.pgn.ucz"))
    check(sorted(os.listdir(outdir)) == ["gz_named_plain.pgn.ucz", "m.pgn.ucz", "x.pgn.ucz"],
          "-r finds the PGN files under the directory (%s)" % sorted(os.listdir(outdir)))
    check(read(os.path.join(outdir, "x.pgn.ucz")) == read(os.path.join(outdir, "m.pgn.ucz")), "-r reads subdirectories")
    check(read(os.path.join(outdir, "gz_named_plain.pgn.ucz")) == plain_arc, "gzip recognised by its magic")
    # m.pgn.zst, .gz, .bz2, .xz all map to m.pgn.ucz: code them one by one
    for kind, (name, _) in kinds.items():
        if kind == "plain":
            continue
        out = os.path.join(tmp, "kind-%s.ucz" % kind)
        run("compress", os.path.join(tmp, name), "-o", out, *quick)
        check(read(out) == plain_arc, "%s input gives the plain file's archive" % kind)
    # default name as zstd: games.pgn.zst -> games.pgn.ucz next to it
    z = os.path.join(tmp, "named.pgn.zst")
    shutil.copy(os.path.join(tmp, "m.pgn.zst"), z)
    run("compress", z, *quick)
    check(read(os.path.join(tmp, "named.pgn.ucz")) == plain_arc, "games.pgn.zst -> games.pgn.ucz")

    # Identical bytes for -j1, -j2 and -j4.
    arcs = []
    for j in ("1", "2", "4"):
        out = os.path.join(tmp, "j%s.ucz" % j)
        run("compress", other, "-o", out, "--depth", "1", "-j", j)
        arcs.append(read(out))
    check(arcs[0] == arcs[1] == arcs[2], "-j1, -j2 and -j4 give identical archives")

    # -o: several inputs into one archive, games in input order.
    both = os.path.join(tmp, "both.ucz")
    run("compress", other, small, "-o", both, *quick)
    expected = read(other) + read(small)
    check(run("decompress", both, "-c", "-j", "2").stdout == expected, "-o keeps the games of every input in order")
    # decompress several archives: one PGN each, and -c / -o concatenate them
    a1, a2 = os.path.join(tmp, "j1.ucz"), os.path.join(tmp, "named.pgn.ucz")
    d = os.path.join(tmp, "dec")
    run("decompress", a2, os.path.join(outdir, "m.pgn.ucz"), "--output-dir", d, "-j", "2")
    check(read(os.path.join(d, "named.pgn")) == read(small), "decompress --output-dir")
    check(run("decompress", "-c", a1, a2).stdout == read(other) + read(small), "decompress -c of several archives")

    # The zstd letters, with no command name.
    check(run("-dc", a2).stdout == read(small), "ucizip -dc")
    check(b"OK, 40 games" in run("-t", a2).stdout, "ucizip -t verifies")
    check(run("-l", a2).stdout.splitlines()[1].split()[2] == b"40", "ucizip -l lists (zstd's table)")
    check(b"40 games" in run("info", "-", input=read(a2)).stdout, "info reads stdin")
    check(run("extract", "-", "--game", "2", input=read(a2)).stdout ==
          run("extract", a2, "--game", "2").stdout, "extract reads stdin")
    h = run("decompress", "--help").stdout
    check(b"--engine" in h and b"--depth" not in h and b"--mode" not in h and b"--hash" not in h,
          "decompress --help lists only what it accepts")
    for opt in (b"--depth", b"--mode", b"--hash", b"--nodes"):
        check(opt not in run("verify", "--help").stdout, "verify --help has no %s" % opt.decode())

    # Mode and modification time of the input; -o naming an input is refused even with -f.
    priv = os.path.join(tmp, "private.pgn")
    shutil.copy(other, priv)
    os.chmod(priv, 0o600)
    os.utime(priv, (1_600_000_000, 1_600_000_000))
    run("compress", priv, *quick)
    st = os.stat(priv + ".ucz")
    check(st.st_mode & 0o777 == 0o600, "archive keeps the input's mode (%o)" % (st.st_mode & 0o777))
    check(int(st.st_mtime) == 1_600_000_000, "archive keeps the input's mtime")
    p = run("compress", priv, "-o", priv, "-f", *quick, ok=False)
    check(p.returncode != 0 and read(priv) == read(other) and b"replace an input" in p.stderr,
          "-o naming the input is refused even with -f")

    # --rm removes the input only after success; -k keeps it (the default).
    victim = os.path.join(tmp, "victim.pgn")
    shutil.copy(other, victim)
    run("compress", victim, "-k", *quick)
    check(os.path.exists(victim), "-k keeps the input")
    os.unlink(victim + ".ucz")
    run("compress", victim, "--rm", *quick)
    check(not os.path.exists(victim) and os.path.exists(victim + ".ucz"), "--rm removes the input after success")

    # A missing file among several: one line naming it; the others are still converted.
    many = os.path.join(tmp, "many")
    os.mkdir(many)
    shutil.copy(other, os.path.join(many, "a.pgn"))
    missing = os.path.join(many, "missing.pgn")
    p = run("compress", missing, os.path.join(many, "a.pgn"), *quick, ok=False)
    check(p.returncode == 1 and (missing + ": No such file").encode() in p.stderr, "missing input named")
    check(os.path.exists(os.path.join(many, "a.pgn.ucz")), "the other input is still converted")
    # into one archive: the run fails without --keep-going and leaves no file ...
    one = os.path.join(many, "one.ucz")
    p = run("compress", missing, os.path.join(many, "a.pgn"), "-o", one, *quick, ok=False)
    check(p.returncode == 1 and not os.path.exists(one), "-o with a missing input fails, no archive")
    # ... and with it the readable inputs are kept (exit status 1)
    p = run("compress", missing, os.path.join(many, "a.pgn"), "-o", one, "--keep-going", *quick, ok=False)
    check(p.returncode == 1 and os.path.exists(one), "--keep-going writes the readable inputs")

    # Truncated .zst and .gz: an error naming the file and the offset; the games before
    # the damage are kept only with --keep-going.
    big = read(corpus("cat1_lichess_rated_blitz_rapid.pgn"))[:60_000]
    big = big[:big.rfind(b"\n\n[Event")] + b"\n"
    for ext, data in ((".gz", gzip.compress(big)), (".zst", None)):
        src = os.path.join(tmp, "cut.pgn" + ext)
        if data is None:
            write(os.path.join(tmp, "cut.pgn"), big)
            subprocess.run(["zstd", "-q", "-f", "-B8192", os.path.join(tmp, "cut.pgn"), "-o", src], check=True)
            data = read(src)
        cut = len(data) // 2
        write(src, data[:cut])
        out = os.path.join(tmp, "cut%s.ucz" % ext)
        p = run("compress", src, "-o", out, *quick, ok=False)
        check(p.returncode == 1 and not os.path.exists(out), "truncated %s: no archive without --keep-going" % ext)
        msg = p.stderr.decode(errors="replace")
        check(("truncated" in msg) and (src + ":") in msg and ("at byte %d" % cut) in msg,
              "truncated %s: error names file and offset (%s)" % (ext, msg.strip().splitlines()[:1]))
        p = run("compress", src, "-o", out, "--keep-going", *quick, ok=False)
        games = run("info", out).stdout.decode() if os.path.exists(out) else ""
        check(p.returncode == 1 and " games" in games and not games.endswith(" 0 games"),
              "truncated %s: --keep-going keeps the games before the damage" % ext)


    # split: at every game boundary and at random byte offsets, no game lost or duplicated.
    text = read(small)
    starts = [0] if text.startswith(b"[Event ") else []
    i = text.find(b"\n\n[Event ")
    while i >= 0:
        starts.append(i + 2)
        i = text.find(b"\n\n[Event ", i + 1)
    check(len(starts) == 40, "40 game starts found (%d)" % len(starts))
    whole = read(small)  # shards hold the input's exact bytes
    def shards_of(at, name):
        d = os.path.join(tmp, name)
        run("split", small, "--at", ",".join(map(str, at)), "--output-dir", d, "-q")
        files = sorted(os.listdir(d))
        check(len(files) == len(at) + 1, "%s: %d shards" % (name, len(files)))
        return [read(os.path.join(d, f)) for f in files]
    parts = shards_of(starts, "every")
    check(parts[0] == b"" and all(p.count(b"[Event ") == 1 for p in parts[1:]), "one game per shard at every boundary")
    check(b"".join(parts) == whole, "shards at every boundary hold every game once")
    rnd = random.Random(os.environ.get("UZ_TEST_SEED", str(time.time())))
    for trial in range(3):
        at = sorted(rnd.sample(range(len(text) + 10), 12))
        parts = shards_of(at, "random%d" % trial)
        check(b"".join(parts) == whole, "random offsets %s: every game once, in order" % at)
        bounds = [-1] + at + [len(text) + 100]
        counts = [sum(1 for s in starts if bounds[k] <= s < bounds[k + 1]) for k in range(len(bounds) - 1)]
        counts[0] = sum(1 for s in starts if s < at[0])
        check([p.count(b"[Event ") for p in parts] == counts, "each game in the shard that holds its first byte")
    zs = os.path.join(tmp, "m.pgn.zst")
    d = os.path.join(tmp, "sized")
    run("split", zs, "--shards", "3", "--output-dir", d, "-q")
    check(b"".join(read(os.path.join(d, f)) for f in sorted(os.listdir(d))) == whole, "split --shards of a .zst input")
    # The GNU parallel driver: the games of the input, in order.
    if shutil.which("parallel"):
        par = os.path.join(tmp, "par.ucz")
        env = dict(os.environ, UCIZIP=UCIZIP)
        p = subprocess.run(["bash", os.path.join(os.environ["UZ_SRC_ROOT"], "scripts", "parallel-compress.sh"), small,
                            par, "--shards", "3", "--jobs", "2", "--", "--engine", "builtin"], env=env,
                           capture_output=True)
        check(p.returncode == 0 and run("decompress", "-c", par).stdout == whole,
              "parallel-compress.sh: the input's games in order (%s)" % p.stderr.decode(errors="replace")[-300:])
    elif os.environ.get("CI"):
        check(False, "GNU parallel missing in CI")
    else:
        print("note: GNU parallel not installed; parallel-compress.sh not tested", file=sys.stderr)

    # A kill at a random point (SIGKILL or SIGINT), then --resume: the uninterrupted bytes.
    capa = corpus("cat2_capablanca_crlf.pgn")
    full = os.path.join(tmp, "full.ucz")
    run("compress", capa, "-o", full, "--max-games", "200", "--block-games", "64", *slowish)
    for sig in (signal.SIGKILL, signal.SIGINT):
        res = os.path.join(tmp, "res-%d.ucz" % sig)
        proc = subprocess.Popen([UCIZIP, "compress", capa, "-o", res, "--max-games", "200", "--block-games", "64",
                                 *slowish],
                                stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None and \
                not any(n.startswith(os.path.basename(res) + ".") and n.endswith(".state") for n in os.listdir(tmp)):
            time.sleep(0.05)
        time.sleep(rnd.uniform(0, 2.0))
        if proc.poll() is None:
            proc.send_signal(sig)
        proc.wait()
        if os.path.exists(res):
            print("note: the run finished before the kill", file=sys.stderr)
            os.unlink(res)
        p = run("compress", capa, "-o", res, "--max-games", "200", "--block-games", "64", "--resume", *slowish)
        check(read(res) == read(full), "kill (signal %d) then --resume gives the uninterrupted bytes" % sig)
        left = [n for n in os.listdir(tmp) if n.startswith(os.path.basename(res) + ".")]
        check(left == [], "no temporary file or state left after the resumed run (%s)" % left)

    # A temporary archive written with other settings (as an older ucizip would have left
    # it) under this run's resume state is not reused: --resume starts over, same bytes.
    def interrupted(name, extra):
        out = os.path.join(tmp, name)
        proc = subprocess.Popen([UCIZIP, "compress", capa, "-o", out, "--max-games", "200", "--block-games", "64",
                                 *extra, *slowish], stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        state = []
        while time.time() < deadline and proc.poll() is None and not state:
            state = [n for n in os.listdir(tmp) if n.startswith(name + ".") and n.endswith(".state")]
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        return os.path.join(tmp, state[0][: -len(".state")]) if state and not os.path.exists(out) else None
    old_tmp, new_tmp = interrupted("old.ucz", ["--opening", "off"]), interrupted("new.ucz", [])
    if old_tmp and new_tmp:
        shutil.copyfile(old_tmp, new_tmp)
        p = run("compress", capa, "-o", os.path.join(tmp, "new.ucz"), "--max-games", "200", "--block-games", "64",
                "--resume", *slowish)
        check(b"not the one its state describes" in p.stderr and b"starting over" in p.stderr,
              "a foreign temporary archive is named and not resumed: %s" % p.stderr.decode(errors="replace")[-300:])
        check(read(os.path.join(tmp, "new.ucz")) == read(full), "... and the run gives the uninterrupted bytes")
    else:
        print("note: a run finished before its kill; foreign resume not tested", file=sys.stderr)

    # Persistent cache: a hit gives the bytes of a search; damaged entries are searched again.
    cache = os.path.join(tmp, "scores.lmdb")
    cold, warm, again = (os.path.join(tmp, n) for n in ("cold.ucz", "warm.ucz", "again.ucz"))
    run("compress", other, "-o", cold, "--cache", cache, *fast)
    p = run("compress", other, "-o", warm, "--cache", cache, "-v", *fast)
    check(read(cold) == read(warm) == arcs[0], "a cache hit gives the same bytes as a search")
    check(b"persistent cache: 0 hits" not in p.stderr, "the second run hits the cache")
    fp = run("info", "--json", cold).stdout.split(b'"fingerprint":"')[1][:16]
    data = bytearray(read(cache))
    damaged, pos = 0, data.find(fp)
    while pos > 0:
        ksize = data[pos - 2] | data[pos - 1] << 8   # LMDB leaf node: ..., key size, key, value
        if 16 < ksize < 200:
            data[pos + ksize + 4] ^= 0x5A           # a byte of the stored moves
            damaged += 1
        pos = data.find(fp, pos + 1)
    write(cache, bytes(data))
    check(damaged > 100, "damaged %d cache entries" % damaged)
    p = run("compress", other, "-o", again, "--cache", cache, "-v", *fast)
    check(read(again) == arcs[0], "damaged cache entries are not used")
    check(b"persistent cache: 0 hits, 0 damaged" not in p.stderr and b" damaged or foreign" in p.stderr,
          "damaged entries are counted: %s" % p.stderr.decode(errors="replace").strip().splitlines()[-1:])
    check(run("decompress", "-c", again, "--cache", cache).stdout == read(other),
          "decompress with the cache")
    # Without --engine too, decompress opens the cache: a fresh one fills with the scores
    # it searched, and a file that is not a cache is refused.
    fresh = os.path.join(tmp, "fresh.lmdb")
    check(run("decompress", "-c", again, "--cache", fresh).stdout == read(other) and os.path.exists(fresh) and
          os.path.getsize(fresh) > 100000, "decompress without --engine fills a new cache")
    p = run("decompress", "-c", again, "--cache", other, ok=False)
    check(p.returncode != 0 and b"score cache" in p.stderr, "a file that is not a cache is refused: %r" % p.stderr)

    # A temporary file left by a process killed with SIGKILL is removed by a later run.
    target = os.path.join(tmp, "killed.ucz")
    proc = subprocess.Popen([UCIZIP, "compress", other, "-o", target, "--engine", "builtin", "--depth", "3", "-j", "1"],
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while time.time() < deadline and not any(n.startswith("killed.ucz.") for n in os.listdir(tmp)):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    left = [n for n in os.listdir(tmp) if n.startswith("killed.ucz.") and n.endswith(".tmp")]
    check(len(left) == 1, "SIGKILL leaves its temporary file (%s)" % left)
    run("compress", small, "-o", target, *quick)
    left = [n for n in os.listdir(tmp) if n.startswith("killed.ucz.") and n.endswith(".tmp")]
    check(left == [], "a later run removes the dead process's temporary file (%s)" % left)

    shutil.rmtree(tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
