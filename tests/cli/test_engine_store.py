#!/usr/bin/env python3
"""The engine store (doc/engines.md) as a user's upgrade looks, with the real Stockfish:
compress keeps the engine in the store; with the system's engine hidden or replaced (a
private mount namespace, or an installed profile whose program is gone) decompress finds
it there and restores the input byte for byte. A tampered binary, a store others can write
or a symbolic link in it are refused; --export / --import keep the engine beside the
archives. info and the refusal show the settings recorded, never the installed profile's
(after its Hash changed from 1 to 4). `--engine /usr/games/stockfish` takes the profile's
settings. The checks of the binary use hashlib, not our own SHA-256."""
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

from harness import check, summary

UCIZIP = os.path.abspath(sys.argv[1])
SRC = os.environ["UZ_SRC_ROOT"]
SAMPLE = os.path.join(os.environ["UZ_TEST_DATA"], "sample.pgn")
STOCKFISH = "/usr/games/stockfish"


def uz(*args, env, ok=True):
    p = subprocess.run([UCIZIP, *args], capture_output=True, env=env)
    if ok:
        check(p.returncode == 0, "ucizip %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode(errors="replace")))
    return p


def first_member(arc, env):
    """The first member of `info --json` (an array of archives, or one archive)."""
    d = json.loads(uz("info", "--json", arc, env=env).stdout)
    return (d[0] if isinstance(d, list) else d)["members"][0]


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def store_env(base, store, **extra):
    return dict(base, UZ_ENGINE_STORE=store, **extra)


def hidden_env(base, tmp, store):
    """The installed profile's program gone (as after the package's removal): the profile
    names a program that does not exist, and no stockfish is in PATH."""
    gone = os.path.join(tmp, "profiles-gone")
    if not os.path.isdir(gone):
        os.mkdir(gone)
        with open(os.path.join(gone, "stockfish.profile"), "w") as f:
            f.write("name = Stockfish\nexe = /nonexistent/stockfish\noption.Threads = 1\noption.Hash = 1\n")
    return dict(base, UZ_ENGINE_STORE=store, UZ_ENGINES_DIR=gone, PATH="/nonexistent")


def tamper(path):
    os.chmod(path, 0o700)
    with open(path, "ab") as f:
        f.write(b"\0")
    os.chmod(path, 0o500)


def test_keep(env, store, arc):
    """compress keeps the binary once, under its SHA-256, with an entry for the fingerprint."""
    fp = first_member(arc, env)["fingerprint"]
    want = sha256_of(STOCKFISH)
    entry = os.path.join(store, "fingerprints", fp)
    blob = os.path.join(store, "blobs", want)
    check(os.path.isfile(entry) and os.path.isfile(blob), "store holds the entry %s and the binary %s" % (fp, want))
    if not os.path.isfile(entry):
        return fp
    text = open(entry).read()
    check("engine=Stockfish 15.1\n" in text and ("sha256=%s\n" % want) in text and "option.Hash=1\n" in text,
          "entry names the engine, the binary's SHA-256 and the settings: %r" % text)
    check(sha256_of(blob) == want, "the stored binary is the installed one, byte for byte")
    for d in (store, os.path.join(store, "blobs"), os.path.join(store, "fingerprints")):
        check(stat.S_IMODE(os.lstat(d).st_mode) == 0o700, "%s is private (0700)" % d)
    check(stat.S_IMODE(os.lstat(blob).st_mode) & 0o022 == 0, "the binary is writable by nobody else")
    before = sorted(os.listdir(os.path.join(store, "blobs"))), os.stat(entry).st_mtime_ns
    uz("compress", SAMPLE, "-o", arc + ".again", "-q", env=env)
    after = sorted(os.listdir(os.path.join(store, "blobs"))), os.stat(entry).st_mtime_ns
    check(before == after, "a second compress stores nothing again: %r %r" % (before, after))
    return fp


def test_hidden(base, tmp, store, arc, expected):
    """Profile's program gone: decompress, verify and extract use the store's copy."""
    env = hidden_env(base, tmp, store)
    p = uz("decompress", arc, "-c", "-v", env=env)
    check(p.stdout == expected, "engine gone: the archive decodes from the store, byte for byte")
    check(b"from the engine store" in p.stderr, "-v says the store's copy was used: %r" % p.stderr)
    check(b"OK" in uz("verify", arc, env=env).stdout, "verify with the store's copy")
    check(uz("extract", arc, "--game", "2", env=env).stdout.startswith(b"[Event "), "extract with the store's copy")


def test_namespace(base, tmp, store, arc, expected):
    """The upgrade as it looks: /usr/games emptied, or holding another `stockfish`."""
    if os.geteuid() != 0 or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        print("note: skipped the private mount namespace part (needs root and `unshare -m`); the "
              "profile-without-program part covers the same lookup", file=sys.stderr)
        return
    empty = os.path.join(tmp, "empty-games")
    other = os.path.join(tmp, "other-games")
    os.mkdir(empty)
    os.mkdir(other)
    # Another engine where Stockfish was: Ethereal under the name stockfish.
    shutil.copy("/usr/games/ethereal-chess", os.path.join(tmp, "ethereal"))
    with open(os.path.join(other, "stockfish"), "w") as f:
        f.write("#!/bin/sh\nexec %s \"$@\"\n" % os.path.join(tmp, "ethereal"))
    os.chmod(os.path.join(other, "stockfish"), 0o755)
    out = os.path.join(tmp, "ns.pgn")
    for name, over in (("no stockfish at all", empty), ("another program as stockfish", other)):
        if os.path.exists(out):
            os.unlink(out)
        script = 'mount --bind "$1" /usr/games && exec "$2" decompress "$3" -o "$4" -v'
        p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", over, UCIZIP, arc, out], capture_output=True,
                           env=dict(store_env(base, store), PATH="/usr/bin:/bin"))
        got = open(out, "rb").read() if os.path.exists(out) else None
        check(p.returncode == 0 and got == expected, "%s: decodes from the store, byte for byte: %r" % (name, p.stderr))
        # The same without the store: refused, naming what is needed and how to get it.
        p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", over, UCIZIP, arc, out + ".2"],
                           capture_output=True, env=dict(store_env(base, os.path.join(tmp, "no-store")),
                                                         PATH="/usr/bin:/bin"))
        err = p.stderr.decode(errors="replace")
        check(p.returncode == 1 and not os.path.exists(out + ".2") and "Stockfish 15.1" in err and "--import" in err
              and "package stockfish 15.1" in err, "%s, no store: the refusal says what and how: %s" % (name, err))


def test_changed_profile(base, tmp, store, arc, expected, fp):
    """The profile's default Hash changed from 1 to 4 after the archive was made."""
    hash4 = os.path.join(tmp, "profiles-hash4")
    shutil.copytree(os.path.join(SRC, "engines"), hash4)
    path = os.path.join(hash4, "stockfish.profile")
    text = open(path).read().replace("option.Hash = 1", "option.Hash = 4")
    check("option.Hash = 4" in text, "the profile's Hash changed")
    open(path, "w").write(text)
    env = dict(base, UZ_ENGINE_STORE=store, UZ_ENGINES_DIR=hash4)
    info = uz("info", arc, env=env).stdout.decode()
    check("Hash 1" in info and "Hash 4" not in info, "info shows the Hash the archive was made with: %s" % info)
    check(first_member(arc, env)["hash_mb"] == 1, "info --json: Hash 1")
    p = uz("decompress", arc, "-c", env=env)
    check(p.stdout == expected, "changed profile: decodes with the store's record of the settings")
    nostore = dict(env, UZ_ENGINE_STORE=os.path.join(tmp, "no-store"))
    info = uz("info", arc, env=nostore).stdout.decode()
    check("Hash 4" not in info and "not recorded" in info, "without the store info says so, not Hash 4: %s" % info)
    p = uz("decompress", arc, "-c", env=nostore, ok=False)
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 1 and p.stdout == b"" and "Hash 4" not in err.split("Installed:")[0] and fp in err
          and "--import" in err, "refused naming the fingerprint, not the current Hash: %s" % err)


def test_export_import(base, tmp, store, arc, expected):
    """--export / --import round trip; a tampered copy, a shared store, a link: refused."""
    exported = os.path.join(tmp, "archives-engines")
    p = uz("engine", "--export", exported, env=store_env(base, store))
    check(b"1 engine copied" in p.stderr, "export copies the engine: %r" % p.stderr)
    fresh = os.path.join(tmp, "store-imported")
    p = uz("engine", "--import", exported, env=store_env(base, fresh))
    check(b"1 engine added" in p.stderr and b"added: the same binary as your installed engine" in p.stderr,
          "import adds it: %r" % p.stderr)
    p = uz("decompress", arc, "-c", env=hidden_env(base, tmp, fresh))
    check(p.stdout == expected, "decodes from the imported engine, byte for byte")
    check(b"0 engines added" in uz("engine", "--import", exported, env=store_env(base, fresh)).stderr,
          "importing again adds nothing")

    # A binary changed after it was stored: checked before every start, refused.
    blob = os.path.join(fresh, "blobs", os.listdir(os.path.join(fresh, "blobs"))[0])
    tamper(blob)
    out = os.path.join(tmp, "tampered.pgn")
    p = uz("decompress", arc, "-o", out, env=hidden_env(base, tmp, fresh), ok=False)
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 1 and not os.path.exists(out) and "changed" in err and "not started" in err,
          "a tampered stored engine is not started: %s" % err)
    # An exported copy changed on its way: refused by --import, nothing added.
    bad = os.path.join(tmp, "bad-export")
    shutil.copytree(exported, bad, symlinks=True)
    tamper(os.path.join(bad, "blobs", os.listdir(os.path.join(bad, "blobs"))[0]))
    other = os.path.join(tmp, "store-other")
    p = uz("engine", "--import", bad, env=store_env(base, other), ok=False)
    check(p.returncode == 1 and b"SHA-256" in p.stderr and not os.listdir(os.path.join(other, "fingerprints")),
          "import of a changed copy refused: %r" % p.stderr)

    # A store others can write, or holding a symbolic link: refused when decoding, and
    # compress says it could not keep the engine (and still compresses).
    shared = os.path.join(tmp, "store-shared")
    uz("engine", "--import", exported, env=store_env(base, shared))
    for what, spoil in (("group-writable store", lambda: os.chmod(shared, 0o770)),
                        ("world-writable binaries dir", lambda: os.chmod(os.path.join(shared, "blobs"), 0o707))):
        os.chmod(shared, 0o700)
        os.chmod(os.path.join(shared, "blobs"), 0o700)
        spoil()
        p = uz("decompress", arc, "-c", env=hidden_env(base, tmp, shared), ok=False)
        check(p.returncode == 1 and p.stdout == b"" and b"writable by others" in p.stderr,
              "%s refused: %r" % (what, p.stderr))
        p = uz("compress", SAMPLE, "-o", os.path.join(tmp, "shared.ucz"), "-f", env=store_env(base, shared))
        check(p.returncode == 0 and b"engine store" in p.stderr and b"writable by others" in p.stderr,
              "%s: compress warns and goes on: %r" % (what, p.stderr))
    linked = os.path.join(tmp, "store-linked")
    os.mkdir(linked, 0o700)
    os.symlink(os.path.join(exported, "blobs"), os.path.join(linked, "blobs"))
    shutil.copytree(os.path.join(exported, "fingerprints"), os.path.join(linked, "fingerprints"))
    p = uz("decompress", arc, "-c", env=hidden_env(base, tmp, linked), ok=False)
    check(p.returncode == 1 and b"symbolic link" in p.stderr, "a symbolic link in the store refused: %r" % p.stderr)


def forged_copy(tmp, name, store, fingerprint, blob=None, make=None):
    """A copy as --export writes it, with the store's one entry under fingerprint and a
    binary: the file blob (its SHA-256 in the entry), or what make(path) puts there."""
    d = os.path.join(tmp, name)
    os.makedirs(os.path.join(d, "blobs"))
    os.makedirs(os.path.join(d, "fingerprints"))
    with open(os.path.join(store, "fingerprints", os.listdir(os.path.join(store, "fingerprints"))[0])) as f:
        entry = f.read()
    sha = sha256_of(blob) if blob else sha256_of(STOCKFISH)
    entry = "".join("sha256=%s\n" % sha if line.startswith("sha256=") else line
                    for line in entry.splitlines(True))
    with open(os.path.join(d, "fingerprints", fingerprint), "w") as f:
        f.write(entry)
    target = os.path.join(d, "blobs", sha)
    if blob:
        shutil.copy(blob, target)
    else:
        make(target)
    return d


def test_import_attack(base, tmp, store, arc, expected, fp):
    """A shell script under Stockfish 15.1's fingerprint (it runs the real engine after its
    own deed): with the real engine installed the store keeps the real one and the script
    never runs; with it hidden the script is run to check its fingerprint (it gives it) and
    added read-only, and the user's own compress later puts the real binary in its place.
    An entry whose binary gives another fingerprint, or does not run, is refused."""
    pwned = os.path.join(tmp, "PWNED")
    script = os.path.join(tmp, "evil-engine")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n/usr/bin/touch %s\nexec %s\n" % (pwned, STOCKFISH))
    os.chmod(script, 0o755)
    evil = forged_copy(tmp, "evil-copy", store, fp, blob=script)
    mine = os.path.join(tmp, "store-attacked")
    p = uz("engine", "--import", evil, env=store_env(base, mine))
    err = p.stderr.decode(errors="replace")
    entry = open(os.path.join(mine, "fingerprints", fp)).read()
    check("Stockfish 15.1, fingerprint %s, SHA-256 %s: not imported: your installed engine gives this fingerprint"
          % (fp, sha256_of(script)) in err and "sha256=%s\n" % sha256_of(STOCKFISH) in entry
          and os.listdir(os.path.join(mine, "blobs")) == [sha256_of(STOCKFISH)] and not os.path.exists(pwned),
          "the installed engine's fingerprint: the store keeps the real engine, the script never ran: %s" % err)

    hidden = hidden_env(base, tmp, os.path.join(tmp, "store-attacked-hidden"))
    p = uz("engine", "--import", evil, env=hidden)
    err = p.stderr.decode(errors="replace")
    entry_path = os.path.join(hidden["UZ_ENGINE_STORE"], "fingerprints", fp)
    check("SHA-256 %s: added: running it gave its fingerprint" % sha256_of(script) in err
          and os.path.exists(pwned) and stat.S_IMODE(os.stat(entry_path).st_mode) == 0o400,
          "no installed engine: the script ran once to check its fingerprint, added read-only: %s" % err)
    os.unlink(pwned)
    uz("compress", SAMPLE, "-o", os.path.join(tmp, "own.ucz"), "-q", env=store_env(base, hidden["UZ_ENGINE_STORE"]))
    check("sha256=%s\n" % sha256_of(STOCKFISH) in open(entry_path).read()
          and stat.S_IMODE(os.stat(entry_path).st_mode) == 0o600,
          "the user's own compress replaces the imported binary by the real engine")
    p = uz("decompress", arc, "-c", env=hidden)
    check(p.stdout == expected and not os.path.exists(pwned), "decoding from the store runs the real engine")

    # The real engine under another fingerprint; a binary that is no engine: refused.
    for name, blob, why in (("wrong-fp", STOCKFISH, b"running it gave fingerprint " + fp.encode()),
                            ("not-engine", "/bin/true", b"refused: it did not run")):
        other = os.path.join(tmp, "store-" + name)
        p = uz("engine", "--import", forged_copy(tmp, name, store, "0123456789abcdef", blob=blob),
               env=hidden_env(base, tmp, other), ok=False)
        check(p.returncode == 1 and why in p.stderr and b"1 refused" in p.stderr
              and not os.listdir(os.path.join(other, "fingerprints")) and not os.listdir(os.path.join(other, "blobs")),
              "%s: refused, nothing kept: %r" % (name, p.stderr))


def test_import_special_files(base, tmp, store, fp):
    """A binary linked to /dev/zero, a FIFO binary, a FIFO entry: refused at once, nothing
    left in the store (each import bounded by a timeout here)."""
    def fifo_entry(path):
        shutil.copy(STOCKFISH, path)
        entry = os.path.join(os.path.dirname(os.path.dirname(path)), "fingerprints", fp)
        os.unlink(entry)
        os.mkfifo(entry)

    for name, make, why in (("zero", lambda path: os.symlink("/dev/zero", path), b"is a symbolic link"),
                            ("fifo", os.mkfifo, b"is not a regular file"),
                            ("fifo-entry", fifo_entry, b"is not a regular file")):
        copy = forged_copy(tmp, "special-" + name, store, fp, make=make)
        other = os.path.join(tmp, "store-special-" + name)
        try:
            p = subprocess.run([UCIZIP, "engine", "--import", copy], capture_output=True, timeout=60,
                               env=store_env(base, other))
        except subprocess.TimeoutExpired:
            check(False, "%s: import did not return within 60 s" % name)
            continue
        left = os.listdir(os.path.join(other, "blobs")) if os.path.isdir(other) else []
        check(p.returncode == 1 and why in p.stderr and not left, "%s refused: %r, left %r" % (name, p.stderr, left))


def test_engine_path(env):
    """--engine with the path of the profile's program: the profile's settings."""
    by_name = json.loads(uz("engine", "--json", "--positions", "1", env=env).stdout)
    for path in (STOCKFISH, os.path.realpath(STOCKFISH)):
        by_path = json.loads(uz("engine", "--engine", path, "--json", "--positions", "1", env=env).stdout)
        check(by_path["fingerprint"] == by_name["fingerprint"] and by_path["hash_mb"] == 1
              and by_path["profile"] == "stockfish", "--engine %s runs as the stockfish profile: %r" % (path, by_path))


def main():
    if not os.access(STOCKFISH, os.X_OK):
        print("skipped: %s not installed" % STOCKFISH)
        return 77
    tmp = tempfile.mkdtemp(prefix="ucizip-store-")
    try:
        base = dict(os.environ)
        store = os.path.join(tmp, "store")
        env = store_env(base, store)
        arc = os.path.join(tmp, "sample.ucz")
        expected = open(SAMPLE, "rb").read()
        uz("compress", SAMPLE, "-o", arc, "-q", env=env)
        fp = test_keep(env, store, arc)
        test_hidden(base, tmp, store, arc, expected)
        test_namespace(base, tmp, store, arc, expected)
        test_changed_profile(base, tmp, store, arc, expected, fp)
        test_export_import(base, tmp, store, arc, expected)
        test_import_attack(base, tmp, store, arc, expected, fp)
        test_import_special_files(base, tmp, store, fp)
        test_engine_path(env)
    finally:
        for root, dirs, files in os.walk(tmp):
            for name in dirs + files:
                p = os.path.join(root, name)
                if not os.path.islink(p):
                    os.chmod(p, 0o700)
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
