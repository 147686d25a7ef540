#!/usr/bin/env python3
"""Byte-exact round trips judged by others: every PGN file given (or every file of a
directory) is compressed and decompressed by ucizip; the output must be byte-identical to
the input, and pgn-extract (an independent PGN reader) must read the same games from both.
Prints one line per file: bytes, archive size, xz -9 size, and the verdicts.

usage: roundtrip_corpus.py UCIZIP PGN_OR_DIR... [--depth N] [--sample K] [--workers N] [--cache PATH]
                          [--engine E] [--jobs N]
  --sample K   only the first K games of each file (sanitizer runs)
  --workers N  engine processes (1 for many small files: start-up dominates)
  --cache PATH persistent score caches for compress and decompress, PATH-FILE for each file:
               decompress then takes the scores compress searched (the engine's own
               determinism is tested elsewhere)
  --engine E   compress with engine E (builtin: the built-in oracle, for files whose subject
               is their layout, not the oracle); decompress takes the archive's
  --jobs N     files round-tripped side by side (default: one a core)"""
import concurrent.futures, hashlib, os, shutil, subprocess, sys, tempfile


def pgn_extract():
    for p in ("pgn-extract", "/usr/games/pgn-extract"):
        if shutil.which(p) or os.path.exists(p):
            return shutil.which(p) or p
    return None


def extract_digest(tool, path):
    """What pgn-extract reads from a file, normalised by pgn-extract itself."""
    out = subprocess.run([tool, "-s", "-w100000", path], capture_output=True)
    return hashlib.sha256(out.stdout).hexdigest()


def first_games(src, dst, k):
    """The bytes of src up to the start of its (k+1)-th tag section (a prefix of the file)."""
    data = open(src, "rb").read()
    count, i = 0, 0
    while True:
        j = data.find(b"\n[Event ", i)
        if j < 0:
            break
        count += 1
        if count > k:
            data = data[: j + 1]
            break
        i = j + 1
    open(dst, "wb").write(data)


def main():
    args = sys.argv[1:]
    depth, sample, workers, cache, engine = None, None, None, None, None
    if "--depth" in args:
        i = args.index("--depth"); depth = args[i + 1]; del args[i:i + 2]
    if "--cache" in args:
        i = args.index("--cache"); cache = args[i + 1]; del args[i:i + 2]
    if "--workers" in args:
        i = args.index("--workers"); workers = args[i + 1]; del args[i:i + 2]
    if "--engine" in args:
        i = args.index("--engine"); engine = args[i + 1]; del args[i:i + 2]
    jobs = os.cpu_count() or 1
    if "--jobs" in args:
        i = args.index("--jobs"); jobs = int(args[i + 1]); del args[i:i + 2]
    if "--sample" in args:
        i = args.index("--sample"); sample = int(args[i + 1]); del args[i:i + 2]
    if len(args) < 2:
        print(__doc__); return 2
    uz, inputs = args[0], args[1:]
    files = []
    for p in inputs:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".pgn"))
        else:
            files.append(p)
    tool = pgn_extract()
    tmp = tempfile.mkdtemp()

    def one(f):
        """The verdict line of one file and whether it passed."""
        name = os.path.basename(f)
        src = f
        if sample:
            src = os.path.join(tmp, name)
            first_games(f, src, sample)
        arc, out = os.path.join(tmp, name + ".ucz"), os.path.join(tmp, name + ".out")
        # (a cache of the file's own: files run side by side, each writing its cache)
        w = (["--workers", workers] if workers else []) + (["--cache", cache + "-" + name] if cache else [])
        cmd = [uz, "compress", "-q", "-f", src, "-o", arc] + (["--depth", depth] if depth else []) + w
        cmd += ["--engine", engine] if engine else []
        c = subprocess.run(cmd, capture_output=True)
        d = subprocess.run([uz, "decompress", "-f", arc, "-o", out] + w, capture_output=True) if c.returncode == 0 else c
        if c.returncode != 0 or d.returncode != 0:
            return f"FAIL {name}: {(c.stderr or d.stderr).decode(errors='replace').strip()}", False
        same = open(src, "rb").read() == open(out, "rb").read()
        peer = "-"
        if tool:
            peer = "same" if extract_digest(tool, src) == extract_digest(tool, out) else "DIFFERENT"
        size, asize = os.path.getsize(src), os.path.getsize(arc)
        xz = len(subprocess.run(["xz", "-9", "-c", src], capture_output=True).stdout)
        ok = same and peer != "DIFFERENT"
        return (f"{'ok  ' if ok else 'FAIL'} {name}: {size} bytes, archive {asize} ({100.0 * asize / xz:.0f}% of xz -9 {xz}); "
                f"byte-identical {'yes' if same else 'NO'}; pgn-extract {peer}"), ok

    failed = 0
    try:
        # Files side by side, one a core (xz, pgn-extract and a small file's start-up use one
        # core each), the largest first so that none is left alone at the end; lines are
        # printed in the files' order.
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            runs = {f: pool.submit(one, f) for f in sorted(files, key=os.path.getsize, reverse=True)}
            for f in files:
                line, ok = runs[f].result()
                print(line, flush=True)
                failed += not ok
    finally:
        shutil.rmtree(tmp)
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
