#!/usr/bin/env python3
"""Caches that cannot betray (doc/trust.md), end to end with the real Stockfish: a
poisoned score cache (entries edited, their checksums recomputed) never costs an input
under --rm and never makes verify say OK; a cache whose data or lock file is a symbolic
link or not a regular file is refused, leaving no lock file behind; a truncated or
damaged cache, or a read-only one, is left out with a warning naming it."""
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile

import harness
from harness import check, corpus, run, run_cmd, summary
from ucz_bytes import header_fields, with_header

sys.path.insert(0, os.path.join(os.environ["UZ_SRC_ROOT"], "tools"))
from edu_decode import xxh64  # noqa: E402 (an XXH64 written from its specification)

FAST = ["--depth", "1", "--workers", "1"]


def fnv(data, h=1469598103934665603):
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def cache_entries(data):
    """(offset of the key, key length, offset of the value, value length) of every entry
    in the leaf pages of an LMDB file (64-bit layout, as score_cache.c mirrors it)."""
    psize = struct.unpack_from("<I", data, 16 + 24)[0]
    for page in range(2, len(data) // psize):
        base = page * psize
        flags, lower = struct.unpack_from("<HH", data, base + 10)
        if flags != 0x02 or lower < 16 or lower > psize:  # plain leaf pages only
            continue
        for i in range((lower - 16) // 2):
            node = base + struct.unpack_from("<H", data, base + 16 + 2 * i)[0]
            lo, hi, _, ksize = struct.unpack_from("<HHHH", data, node)
            yield node + 8, ksize, node + 8 + ksize, lo | hi << 16


def poison(path):
    """Changes the first score of every entry by 400 centipawns and recomputes the entry's
    checksum: a cache that looks intact and lies. Returns the number of entries changed."""
    data = bytearray(open(path, "rb").read())
    changed = 0
    for k, klen, v, vlen in cache_entries(bytes(data)):
        n = data[v + 1]
        if data[v] != 1 or vlen != 2 + 6 * n + 8 or n < 2:
            continue
        at = v + 2 + 2 * n
        struct.pack_into("<i", data, at, struct.unpack_from("<i", data, at)[0] + 400)
        struct.pack_into("<Q", data, v + vlen - 8, fnv(data[v:v + vlen - 8], fnv(data[k:k + klen])))
        changed += 1
    open(path, "wb").write(data)
    return changed


def decodes_without_cache(archive, original):
    p = run("decompress", archive, "-c", ok=False)
    return p.returncode == 0 and p.stdout == original


def poisoned_cache(d, games):
    """--rm with a poisoned cache keeps the input unless the archive decodes without it;
    verify --cache says OK only for an archive that decodes without the cache."""
    cache = os.path.join(d, "p.lmdb")
    run("compress", games, "-o", os.path.join(d, "honest.ucz"), "--cache", cache, *FAST)
    n = poison(cache)
    check(n > 50, "poisoned %d cache entries" % n)
    original = open(games, "rb").read()
    # Without --rm (compress x && rm x): an archive under the final name decodes without
    # the cache, or the run fails and leaves nothing there.
    plain = os.path.join(d, "plain.ucz")
    p = run("compress", games, "-o", plain, "--cache", cache, *FAST, ok=False)
    err = p.stderr.decode(errors="replace")
    check("disagrees with the engine" in err, "the poisoned cache is reported: " + err)
    if p.returncode == 0:
        check(decodes_without_cache(plain, original), "exit 0 with an archive that does not decode: " + err)
    else:
        check(not os.path.exists(plain), "a failed run left %s" % plain)
        check(not [n for n in os.listdir(d) if n.startswith("plain.ucz.")], "a failed run left its temporary")
    print("poisoned cache without --rm: exit %d: %s" % (p.returncode, err.strip()))
    work = os.path.join(d, "in.pgn")
    shutil.copy(games, work)
    out = os.path.join(d, "in.pgn.ucz")
    p = run("compress", work, "-o", out, "--cache", cache, "--rm", *FAST, ok=False)
    err = p.stderr.decode(errors="replace")
    check("disagrees with the engine" in err, "the poisoned cache is reported: " + err)
    good = os.path.exists(out) and decodes_without_cache(out, original)
    check(os.path.exists(work) or good, "--rm removed the input of an archive that does not decode: " + err)
    if os.path.exists(work):
        check(open(work, "rb").read() == original, "the kept input is intact")
        check(p.returncode != 0 or good, "a kept input with exit status 0")
    print("poisoned cache: %d entries; --rm %s the input; archive %s without the cache"
          % (n, "kept" if os.path.exists(work) else "removed", "decodes" if good else "does not decode"))
    if os.path.exists(out):
        v = run("verify", out, "--cache", cache, ok=False)
        check((v.returncode == 0) == good, "verify --cache agrees with a decode without the cache: %s"
              % v.stderr.decode(errors="replace"))
    # Decoding with the poisoned cache: the same games, or an error, never other text.
    dec = run("decompress", os.path.join(d, "honest.ucz"), "-c", "--cache", cache, ok=False)
    check(dec.returncode != 0 or dec.stdout == original, "a poisoned cache gave other games")


def refused(d, archive, name, setup, needle):
    """A cache refused before LMDB opens anything: error naming it, no lock file left."""
    cache = os.path.join(d, name)
    setup(cache)
    lock_before = os.path.lexists(cache + "-lock")
    p = run("decompress", archive, "-c", "--cache", cache, ok=False)
    err = p.stderr.decode(errors="replace")
    check(p.returncode != 0 and needle in err and name in err and err.count("\n") == 1,
          "%s: refused with '%s': %s" % (name, needle, err))
    check(os.path.lexists(cache + "-lock") == lock_before, "%s: a refused cache left a lock file" % name)
    print("%s -> %s" % (name, err.strip()))


def left_out(d, archive, original, name, damage, needle):
    """A cache that cannot be used is left out: a warning naming it, the right games."""
    cache = os.path.join(d, name)
    damage(cache)
    p = run("decompress", archive, "-c", "--cache", cache, ok=False)
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 0 and p.stdout == original, "%s: exit %d, %s" % (name, p.returncode, err))
    check(needle in err and name in err and "without it" in err, "%s: warning with '%s': %s" % (name, needle, err))
    print("%s -> %s" % (name, err.strip()))


def read_only_as_root(d, archive, original, ro):
    """Root writes any file whatever its mode: the cache's folder is made a read-only
    mount in a private mount namespace instead (skipped where unshare is not allowed)."""
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    probe = run_cmd(["unshare", "-m", "sh", "-c", script, "sh", ro, "true"], ok=False)
    if probe.returncode != 0:
        print("read-only cache: not checked (no private mount namespace: %s)" % probe.stderr.decode(errors="replace"))
        return
    cache = os.path.join(ro, "ro.lmdb")
    p = run_cmd(["unshare", "-m", "sh", "-c", script, "sh", ro, harness.UCIZIP, "decompress", archive, "-c",
                 "--cache", cache], ok=False)
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 0 and p.stdout == original, "read-only cache: exit %d, %s" % (p.returncode, err))
    check("ro.lmdb" in err and "without it" in err, "read-only cache: a warning naming it: %s" % err)
    print("ro/ro.lmdb (read-only mount) -> %s" % err.strip())


def memory_limit(d, games):
    """A forged option.Hash in an archive's settings is refused before any engine starts;
    --memory raises the limit (the forged archive then fails its fingerprint check)."""
    archive = os.path.join(d, "depth2.ucz")
    run("compress", games, "-o", archive, "--depth", "2", "--workers", "1")  # stores its settings text
    data = open(archive, "rb").read()
    fields = header_fields(data)
    key = next(k for k, v in fields.items() if b"option.Hash=" in v)
    fields[key] = re.sub(rb"option\.Hash=\d+", b"option.Hash=2048", fields[key])
    forged = os.path.join(d, "hash2048.ucz")
    open(forged, "wb").write(with_header(data, fields))
    mark = os.path.join(d, "engine-started")
    engine = os.path.join(d, "marking-engine")
    open(engine, "w").write("#!/bin/sh\ntouch '%s'\nexec /usr/games/stockfish\n" % mark)
    os.chmod(engine, 0o755)
    for args in ([], ["--engine", engine]):
        p = run("decompress", forged, "-c", *args, ok=False)
        err = p.stderr.decode(errors="replace")
        check(p.returncode != 0 and p.stdout == b"" and "Hash 2048" in err and "--memory 2048" in err
              and err.count("\n") == 1, "forged Hash refused naming --memory: " + err)
        print("forged option.Hash=2048 -> " + err.strip())
    check(not os.path.exists(mark), "an engine started before the memory limit was checked")
    p = run("decompress", forged, "-c", "--engine", engine, "--memory", "4096", ok=False)
    check(os.path.exists(mark) and p.returncode != 0 and b"fingerprint" in p.stderr,
          "--memory 4096 lets the engine start (the forgery then fails its fingerprint): %s" % p.stderr[:300])
    check(run("verify", archive, "--memory", "1").returncode == 0, "the real archive (Hash 1) within --memory 1")


def interrupted(d, games, out, extra=()):
    """Kills a compress run to out once its state records 3 blocks; returns (tmp path,
    state path) of the dead run."""
    import signal
    import time
    args = [harness.UCIZIP, "compress", games, "-o", out, "--block-games", "2", *FAST, *extra]
    proc = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    name, state, deadline = os.path.basename(out), None, time.time() + 300
    while proc.poll() is None and time.time() < deadline:
        found = [n for n in os.listdir(d) if n.startswith(name + ".") and n.endswith(".tmp.state")]
        if found and b"\nblocks 3\n" in open(os.path.join(d, found[0]), "rb").read():
            state = os.path.join(d, found[0])
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return (state[:-len(".state")], state) if state else (None, None)


def resume_binding(d, games, other):
    """A resume state is bound to the inputs and the temporary archive it describes: an
    edited state, an input edited in place (size and time restored) and a foreign
    temporary archive are each refused, and the run gives the uninterrupted bytes."""
    full = os.path.join(d, "full.ucz")
    run("compress", games, "-o", full, "--block-games", "2", *FAST)
    out = os.path.join(d, "res.ucz")
    tmp, state = interrupted(d, games, out)
    if not tmp:
        check(False, "no interrupted run to resume")
        return
    saved = {p: open(p, "rb").read() for p in (tmp, state)}
    foreign_tmp, _ = interrupted(d, other, os.path.join(d, "foreign.ucz"))
    pristine_input = open(games, "rb").read()
    st = os.stat(games)

    def edit_state(pattern, repl):
        def f():
            text = open(state, "rb").read()
            open(state, "wb").write(re.sub(pattern, lambda m: repl(m).encode(), text, count=1))
        return f

    def forge_state(*edits):
        """Edits fields and recomputes the state's self-check, as anyone who can write it
        can: the state must still agree with the temporary archive it describes."""
        def f():
            text = open(state, "rb").read()
            for field, delta in edits:
                text = re.sub(rb"\n" + field + rb" (-?\d+)\n",
                              lambda m: b"\n%s %d\n" % (field, int(m.group(1)) + delta), text, count=1)
            body = text[:text.index(b"check ")]
            open(state, "wb").write(body + b"check %016x\n" % xxh64(body))
        return f

    def edit_input():
        data = bytearray(pristine_input)
        at = data.index(b"[White \"") + 8
        data[at] = ord("X") if data[at] != ord("X") else ord("Y")
        open(games, "wb").write(data)
        os.utime(games, ns=(st.st_atime_ns, st.st_mtime_ns))

    cases = [
        ("games_read -5", edit_state(rb"games_read (\d+)", lambda m: "games_read %d" % (int(m.group(1)) - 5)), "edited"),
        ("games_read +8", edit_state(rb"games_read (\d+)", lambda m: "games_read %d" % (int(m.group(1)) + 8)), "edited"),
        ("games_read -8", edit_state(rb"games_read (\d+)", lambda m: "games_read %d" % (int(m.group(1)) - 8)), "edited"),
        ("blocks 1", edit_state(rb"blocks (\d+)", lambda m: "blocks 1"), "edited"),
        ("forged games_read +8", forge_state((b"games_read", 8)), "not resuming"),
        ("forged games_read -10", forge_state((b"games_read", -10)), "not resuming"),
        ("forged games -2", forge_state((b"games_read", -2), (b"games", -2)), "does not describe"),
        ("forged blocks -1", forge_state((b"blocks", -1)), "does not describe"),
        ("forged blocks +1", forge_state((b"blocks", 1)), "fewer blocks"),
        ("input edited in place", edit_input, "input changed"),
        ("foreign archive", lambda: shutil.copyfile(foreign_tmp, tmp) if foreign_tmp else None, "temporary archive"),
        ("nothing changed", lambda: None, None),
    ]
    for what, tamper, needle in cases:
        for p, data in saved.items():
            open(p, "wb").write(data)
        tamper()
        p = run("compress", games, "-o", out, "--block-games", "2", "--resume", *FAST, ok=False)
        err = p.stderr.decode(errors="replace")
        if needle:
            check(("not resuming" in err and needle in err), "%s: refused with '%s': %s" % (what, needle, err))
        else:
            check("resumed after 3 blocks" in err, "an intact state resumes: " + err)
        expect = full
        if what == "input edited in place":
            expect = os.path.join(d, "edited.ucz")
            run("compress", games, "-o", expect, "--block-games", "2", *FAST, "-f")
            open(games, "wb").write(pristine_input)
            os.utime(games, ns=(st.st_atime_ns, st.st_mtime_ns))
        check(p.returncode == 0 and open(out, "rb").read() == open(expect, "rb").read(),
              "%s: the uninterrupted bytes (exit %d)" % (what, p.returncode))
        line = [l for l in err.splitlines() if "resum" in l]
        print("%-22s -> %s" % (what, line[0] if line else err.strip()[:200]))
        os.unlink(out)


def main():
    harness.use(sys.argv[1])
    text = open(corpus("cat2_capablanca_crlf.pgn"), "rb").read()
    starts = [m.start() for m in re.finditer(rb"\[Event ", text)]
    with tempfile.TemporaryDirectory() as d:
        games = os.path.join(d, "g.pgn")
        open(games, "wb").write(text[starts[0]:starts[4]])
        original = open(games, "rb").read()
        ten, other = os.path.join(d, "ten.pgn"), os.path.join(d, "other.pgn")
        open(ten, "wb").write(text[starts[0]:starts[10]])
        open(other, "wb").write(text[starts[10]:starts[20]])
        resume_binding(d, ten, other)
        poisoned_cache(d, games)

        archive = os.path.join(d, "g.ucz")
        real = os.path.join(d, "real.lmdb")
        run("compress", games, "-o", archive, "--cache", real, *FAST)
        memory_limit(d, games)
        size = os.path.getsize(real)
        psize = struct.unpack_from("<I", open(real, "rb").read(), 40)[0]

        important = os.path.join(d, "important.dat")
        open(important, "wb").write(b"precious\n")
        refused(d, archive, "lock.lmdb", lambda c: os.symlink(important, c + "-lock"), "symbolic link")
        refused(d, archive, "data.lmdb", lambda c: os.symlink(important, c), "symbolic link")
        refused(d, archive, "dir.lmdb", os.mkdir, "not a regular file")
        refused(d, archive, "fifo.lmdb", os.mkfifo, "not a regular file")
        refused(d, archive, "fifolock.lmdb", lambda c: os.mkfifo(c + "-lock"), "not a regular file")
        check(open(important, "rb").read() == b"precious\n", "a file behind a symbolic link was written")

        def copy_then(f):
            def damage(c):
                shutil.copy(real, c)
                f(c)
            return damage

        def truncate_to(n):
            return copy_then(lambda c: os.truncate(c, n))

        def patch(offset, data):
            def f(c):
                with open(c, "r+b") as fh:
                    fh.seek(offset)
                    fh.write(data)
            return copy_then(f)

        left_out(d, archive, original, "half.lmdb", truncate_to(size // 2), "truncated")
        left_out(d, archive, original, "short.lmdb", truncate_to(size - psize), "truncated")
        left_out(d, archive, original, "tiny.lmdb", truncate_to(100), "truncated")
        left_out(d, archive, original, "magic.lmdb", patch(16, b"\0\0\0\0"), "damaged")
        left_out(d, archive, original, "lastpg.lmdb", patch(psize + 136, struct.pack("<Q", 1 << 40)), "damaged")
        left_out(d, archive, original, "psize.lmdb", patch(40, struct.pack("<I", 12345)), "damaged")
        refused(d, archive, "text.lmdb", lambda c: open(c, "wb").write(b"not a cache\n" * 1000), "not a score cache")
        check(open(os.path.join(d, "text.lmdb"), "rb").read() == b"not a cache\n" * 1000, "a file not a cache was changed")
        ro = os.path.join(d, "ro")
        os.mkdir(ro)
        shutil.copy(real, os.path.join(ro, "ro.lmdb"))
        if os.geteuid() != 0:
            os.chmod(os.path.join(ro, "ro.lmdb"), 0o444)
            os.chmod(ro, 0o555)
            left_out(d, archive, original, "ro/ro.lmdb", lambda c: None, "read-only")
            os.chmod(ro, 0o755)
        else:
            read_only_as_root(d, archive, original, ro)
    return summary()


    return summary()


if __name__ == "__main__":
    sys.exit(main())
