#!/usr/bin/env python3
"""Small things users meet, end to end: the refusal when no engine here can decode an
archive is whole (its engine store part and how to get the engine not cut off, even with
a long store path); a directory given as archive is refused in one line naming it once
(`extract DIR --game 1` once reported byte 9223372036854775807, `info DIR` the path
twice); a header that claims the builtin with Hash or Threads set (keys 6 and 7) is
corrupt for decompress, verify and info alike; the bash completion offers every builtin
version the program takes."""
import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

from harness import check, summary
from ucz_bytes import read_varint

UCIZIP = os.path.abspath(sys.argv[1])
SRC = os.environ["UZ_SRC_ROOT"]
SAMPLE = os.path.join(os.environ["UZ_TEST_DATA"], "sample.pgn")
BUILTIN = ["--engine", "builtin", "--workers", "1"]


def run(*args, env=None):
    return subprocess.run([UCIZIP, *args], capture_output=True, env=env)


def err(p):
    return p.stderr.decode(errors="replace")


def whole_refusal(tmp):
    """The installed engine's profile gone, a store path of 200 characters with no copy."""
    arc = os.path.join(tmp, "sf.ucz")
    p = run("compress", SAMPLE, "-o", arc, "--depth", "1", "--workers", "1", "-q")
    check(p.returncode == 0, "compress with Stockfish: " + err(p))
    gone = os.path.join(tmp, "profiles-gone")
    os.mkdir(gone)
    with open(os.path.join(gone, "stockfish.profile"), "w") as f:
        f.write("name = Stockfish\nexe = /nonexistent/stockfish\noption.Threads = 1\noption.Hash = 1\n")
    # (long enough that the old message cut it off; 100 characters or so)
    store = os.path.join(tmp, "a-store-path-long-enough-to-push-the-message-past-its-room", "x" * 16, "engines")
    env = dict(os.environ, UZ_ENGINE_STORE=store, UZ_ENGINES_DIR=gone, PATH="/nonexistent")
    p = run("decompress", arc, "-c", env=env)
    e = err(p).strip()
    print("refusal (%d characters): %s" % (len(e), e))
    check(p.returncode == 1 and e.count("\n") == 0 and "no engine here" in e, "refused in one line: " + e)
    check(store in e, "the store part names the store's whole path: " + e)
    check(e.endswith("the Debian package stockfish 15.1"), "the message ends with how to get the engine: " + e)


def directory_as_archive(tmp):
    d = os.path.join(tmp, "dir")
    os.mkdir(d)
    for args in (["extract", d, "--game", "1"], ["info", d], ["verify", d], ["list", d]):
        p = run(*args)
        e = err(p)
        check(p.returncode == 1 and e.count("\n") == 1 and e.count(d) == 1 and "directory" in e
              and "9223372036854775807" not in e, "%s DIR: one line naming it once: %s" % (args[0], e.strip()))
        print("%s DIR -> %s" % (args[0], e.strip()))


def forge_key(data, key, value):
    """The archive with header key `key` (a one-byte varint 0) set to value (one byte), its
    header CRC recomputed."""
    hlen, i = read_varint(data, 10)
    body = bytearray(data[i:i + hlen])
    old = bytes([key, 1, 0])
    at = body.find(old)
    assert at >= 0 and body.count(old) == 1, "key %d not found once" % key
    body[at + 2] = value
    return data[:i] + bytes(body) + zlib.crc32(bytes(body)).to_bytes(4, "little") + data[i + hlen + 4:]


def builtin_keys(tmp):
    arc = os.path.join(tmp, "b.ucz")
    p = run("compress", SAMPLE, "-o", arc, *BUILTIN, "-q")
    check(p.returncode == 0, "compress with the builtin: " + err(p))
    data = open(arc, "rb").read()
    for key, what in ((6, "Hash"), (7, "Threads")):
        path = os.path.join(tmp, "forged%d.ucz" % key)
        with open(path, "wb") as f:
            f.write(forge_key(data, key, 5))
        for args in (["decompress", path, "-c"], ["verify", path], ["info", "--json", path], ["info", path]):
            p = run(*args)
            e = err(p)
            shown = p.stdout if args[0] != "info" else b""  # (info --json: an empty array)
            check(p.returncode == 1 and "a header naming the builtin" in e and not shown and b"Hash 5" not in p.stdout
                  and b"hash_mb" not in p.stdout,
                  "%s of a builtin header with %s 5: exit %d, %s %r" % (args[0], what, p.returncode, e, p.stdout[:200]))
    info = json.loads(run("info", "--json", arc).stdout)
    member = (info[0] if isinstance(info, list) else info)["members"][0]
    check(member["hash_mb"] == 0, "the real builtin archive: hash_mb 0")


def completion():
    text = open(os.path.join(SRC, "completions", "ucizip")).read()
    m = re.search(r"--engine\) COMPREPLY=\(\$\(compgen -W \"([^\"]*)\"", text)
    offered = m.group(1).split() if m else []
    taken = []
    for v in range(1, 10):
        p = run("stats", "--engine", "builtin-%d" % v, "--max-games", "1", SAMPLE)
        if p.returncode == 0:
            taken.append("builtin-%d" % v)
    check(len(taken) >= 3, "the program takes builtin-1 to builtin-3: %r" % taken)
    check(all(t in offered for t in taken), "--engine completion offers %r, the program takes %r" % (offered, taken))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        whole_refusal(tmp)
        directory_as_archive(tmp)
        builtin_keys(tmp)
        completion()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
