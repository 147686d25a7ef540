#!/usr/bin/env python3
"""Nothing the user gave is lost, nothing half-written, end to end (doc/safety.md): a
character device or FIFO named as output is written into, never replaced; a dangling
symbolic link is not replaced without -f; a closed stdout asked to hold the output, or a
closed stdin asked for the input, is an error; temporaries and resume state are 0600 from the start and outputs get the input's
mode; tag values reach the terminal escaped; a compressed bomb is refused as it streams,
in flat memory; a game over the size limit is skipped with --keep-going; disk-full
messages name the output; split --at refuses a negative offset; a resumed run writes its
own state before removing the old run's. The sample archive the outputs are written from
and the interrupted runs use the real Stockfish; the other archives are coded with the
built-in oracle (no engine start-up)."""
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

import harness  # noqa: E402
from harness import check, summary

UCIZIP = sys.argv[1]
SRC = os.environ["UZ_SRC_ROOT"]
SAMPLE = os.path.join(SRC, "tests", "data", "sample.pgn")
STOCKFISH = ["--depth", "1", "--workers", "1"]
FAST = ["--engine", "builtin", "--workers", "1"]
SAMPLE_BYTES = open(SAMPLE, "rb").read()
SHORT = bool(os.environ.get("UZ_TEST_SHORT"))
# Under AddressSanitizer freed blocks stay resident (quarantine) and shadow memory is
# added: the memory bound is looser there.
SANITIZED = b"__asan_init" in open(UCIZIP, "rb").read()
PEAK_MB = 400 if SANITIZED else 200


def run(*args, input=None, **kw):
    return subprocess.run([UCIZIP, *args], input=input, capture_output=True, **kw)


def err(p):
    return p.stderr.decode(errors="replace")


def measured(*args, timeout=300):
    return harness.measured(UCIZIP, *args, timeout=timeout)


def wait_for(cond, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = cond()
        if found:
            return found
        time.sleep(0.02)
    return None


def special_outputs(tmp, archive, text):
    """Item 1: devices and FIFOs are written into; links; --rm keeps the inputs."""
    # A clone of /dev/null made with mknod (root only): the node survives, -f or not.
    node = os.path.join(tmp, "null")
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        node = None
        print("skipped: mknod (not root)")
    if node:
        for args in (["decompress", archive, "-o", node, "-f"], ["decompress", archive, "-o", node],
                     ["compress", *FAST, SAMPLE, "-o", node, "-f"], ["pgn", SAMPLE, "-o", node, "-f"]):
            p = run(*args)
            check(p.returncode == 0, "%s into a device: %s" % (args[0], err(p)))
            check(stat.S_ISCHR(os.lstat(node).st_mode), "%s -o DEVICE left it a character device" % args[0])
        check(not [n for n in os.listdir(tmp) if n.startswith("null.")], "no temporary beside the device")
        p = run("decompress", "--rm", archive, "-o", node)
        check(p.returncode == 0 and os.path.exists(archive) and "kept" in err(p),
              "--rm into a device keeps the archive: %s" % err(p))

    # A FIFO with a reader: the bytes arrive through it, and it stays a FIFO.
    fifo = os.path.join(tmp, "pipe")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    p = run("decompress", archive, "-o", fifo, timeout=120)
    reader.join(60)
    check(p.returncode == 0, "decompress into a FIFO: %s" % err(p))
    check(got and got[0] == text, "the games arrived through the FIFO (%d bytes)" % (len(got[0]) if got else -1))
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO is still a FIFO")

    # stdout by a name: a link to /proc/self/fd/1 (stdout a pipe) is written through, kept.
    link = os.path.join(tmp, "to-stdout")
    os.symlink("/proc/self/fd/1", link)
    p = run("decompress", archive, "-o", link, "-f")
    check(p.returncode == 0 and p.stdout == text, "-o LINK-TO-STDOUT -f writes stdout: %s" % err(p))
    check(os.path.islink(link), "the link to stdout is still a link")
    if os.geteuid() != 0:  # (as root a regression would replace the system's own link)
        p = run("decompress", archive, "-o", "/dev/stdout", "-f")
        check(p.returncode == 0 and p.stdout == text, "-o /dev/stdout -f writes stdout: %s" % err(p))
    check(os.path.islink("/dev/stdout"), "/dev/stdout is still a link")
    # A system name leading to a regular file (stderr redirected to one) is appended to.
    log = os.path.join(tmp, "stderr.log")
    with open(log, "wb") as f:
        p = subprocess.run([UCIZIP, "decompress", archive, "-o", "/proc/self/fd/2", "-f"], stderr=f)
    check(p.returncode == 0 and open(log, "rb").read() == text, "-o /proc/self/fd/2 writes into stderr's file")

    # A dangling symbolic link is not replaced without -f, nor its target created.
    dangling = os.path.join(tmp, "dangling.pgn")
    os.symlink("missing-target.pgn", dangling)
    p = run("decompress", archive, "-o", dangling)
    check(p.returncode == 1 and "already exists" in err(p) and "-f" in err(p),
          "a dangling link as output is refused without -f: %s" % err(p))
    check(os.path.islink(dangling) and not os.path.exists(os.path.join(tmp, "missing-target.pgn")),
          "the dangling link is left as it was")
    p = run("decompress", archive, "-o", dangling, "-f")
    check(p.returncode == 0 and open(dangling, "rb").read() == text, "with -f it is replaced: %s" % err(p))

    # Anything else that is not a regular file is refused, -f or not.
    p = run("decompress", archive, "-o", tmp, "-f")
    check(p.returncode == 1 and "not a regular file" in err(p), "a directory as output is refused: %s" % err(p))


def closed_stdout(tmp, archive):
    """Item 5: writing the output to a closed stdout is an error, not silently dropped."""
    def closed(*args):
        return subprocess.run([UCIZIP, *args], stdout=None, stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1),
                              timeout=300)

    for args in (["decompress", "-c", archive], ["decompress", archive, "-o", "-"],
                 ["compress", *FAST, SAMPLE, "-o", "-"], ["compress", *FAST, SAMPLE, "-o", "/dev/stdout"],
                 ["pgn", SAMPLE], ["list", archive], ["ratings", SAMPLE]):
        p = closed(*args)
        e = p.stderr.decode(errors="replace")
        check(p.returncode == 1 and "standard output is closed" in e,
              "%s with stdout closed: exit %d, %s" % (" ".join(args[:2]), p.returncode, e.strip()[:200]))
    # An output file is still written with stdout closed.
    out = os.path.join(tmp, "closed-stdout.pgn")
    p = closed("decompress", archive, "-o", out)
    check(p.returncode == 0 and os.path.getsize(out) > 0, "an output file with stdout closed: %s" % p.stderr[:200])


def closed_stdin(tmp, archive):
    """A closed stdin (<&-) named as input is an error, never an empty input: exit 1, no
    archive and no temporary left."""
    def closed(*args):
        return subprocess.run([UCIZIP, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=lambda: os.close(0), timeout=300)

    d = os.path.join(tmp, "closed-stdin")
    os.mkdir(d)
    for what, args, out in (("compress", ["compress", *FAST, "-", "-o", os.path.join(d, "x.ucz")], "x.ucz"),
                            ("compress, no input", ["compress", *FAST, "-o", os.path.join(d, "y.ucz")], "y.ucz"),
                            ("decompress", ["decompress", "-", "-o", os.path.join(d, "x.pgn")], "x.pgn"),
                            ("verify", ["verify", "-"], None), ("info", ["info", "-"], None)):
        p = closed(*args)
        e = err(p)
        check(p.returncode == 1 and "standard input is closed" in e and e.count("\n") == 1,
              "%s with stdin closed: exit %d, %s" % (what, p.returncode, e.strip()[:200]))
        check(not os.listdir(d), "%s with stdin closed left %s" % (what, os.listdir(d)))
    # Files are still read with stdin closed, and an empty stdin (</dev/null) is no error.
    p = closed("decompress", archive, "-c")
    check(p.returncode == 0 and p.stdout == SAMPLE_BYTES, "an input file with stdin closed: %s" % err(p))
    p = run("compress", *FAST, "-", "-o", os.path.join(d, "empty.ucz"), stdin=subprocess.DEVNULL)
    check(p.returncode == 0, "an empty stdin is an empty archive: %s" % err(p))


def modes(tmp):
    """Item 8: the temporary archive and its resume state are 0600 from the start (also
    when kept for --resume), the output gets the input's mode; item 17: a resumed run
    writes its own state before it removes the one it resumed from."""
    src = os.path.join(tmp, "secret.pgn")
    open(src, "wb").write(SAMPLE_BYTES)
    os.chmod(src, 0o600)
    out = os.path.join(tmp, "secret.ucz")
    slow = ["--depth", "4", "--workers", "1", "--block-games", "1"]

    def temps(suffix):
        return [n for n in os.listdir(tmp) if n.startswith("secret.ucz.") and n.endswith(suffix)]

    old_umask = os.umask(0o022)
    try:
        a = subprocess.Popen([UCIZIP, "compress", *slow, src, "-o", out], stderr=subprocess.DEVNULL)
        tmp_names = wait_for(lambda: temps(".tmp"), 60)
        check(bool(tmp_names), "the run's temporary appeared")
        if tmp_names:
            mode = stat.S_IMODE(os.stat(os.path.join(tmp, tmp_names[0])).st_mode)
            check(mode == 0o600, "temporary of a 0600 input, while written: %o" % mode)
        states = wait_for(lambda: temps(".tmp.state"), 240)
        check(bool(states), "a resume state appeared after the first block")
        a.send_signal(signal.SIGINT)
        a.wait(60)
        kept = temps(".tmp") + temps(".tmp.state")
        check(len(kept) == 2, "interrupted: temporary and state kept for --resume: %s" % kept)
        for name in kept:
            mode = stat.S_IMODE(os.stat(os.path.join(tmp, name)).st_mode)
            check(mode == 0o600, "%s kept 0600: %o" % (name, mode))

        # Resume, and kill that run as soon as it says it resumed: its own state must
        # already be there, or the blocks copied so far would be lost to a third run.
        b = subprocess.Popen([UCIZIP, "compress", *slow, "--resume", src, "-o", out], stderr=subprocess.PIPE)
        said = b""
        while b"resumed after" not in said:
            line = b.stderr.readline()
            if not line:
                break
            said += line
        b.send_signal(signal.SIGKILL)
        b.wait(60)
        check(b"resumed after" in said, "the second run resumed: %r" % said[-300:])
        c = subprocess.Popen([UCIZIP, "compress", *slow, "--resume", src, "-o", out], stderr=subprocess.PIPE)
        said = c.stderr.readline()
        c.send_signal(signal.SIGKILL)
        c.wait(60)
        check(b"resumed after" in said, "a run killed right after resuming can be resumed: %r" % said[:300])
        for name in temps(".tmp") + temps(".tmp.state"):
            os.remove(os.path.join(tmp, name))

        # Finished outputs: the input's mode (either way), or 0666 less the umask.
        for mode in (0o600, 0o644):
            os.chmod(src, mode)
            p = run("compress", *FAST, "-f", src, "-o", out)
            got = stat.S_IMODE(os.stat(out).st_mode)
            check(p.returncode == 0 and got == mode, "compress of a %o input gives %o" % (mode, got))
        os.chmod(out, 0o600)
        pgn = os.path.join(tmp, "secret.out.pgn")
        p = run("decompress", out, "-o", pgn)
        check(stat.S_IMODE(os.stat(pgn).st_mode) == 0o600, "decompress of a 0600 archive gives 0600")
        # transcode likewise (it gave 0644), silent with -q; never over its own input.
        moved = os.path.join(tmp, "secret.moved.ucz")
        p = run("transcode", out, "-o", moved, "-q", "--engine", "builtin", "--depth", "2", "--workers", "1")
        got = stat.S_IMODE(os.stat(moved).st_mode)
        check(p.returncode == 0 and got == 0o600 and p.stderr == b"",
              "transcode -q of a 0600 archive gives 0600, silently: %o %r" % (got, p.stderr))
        before = open(out, "rb").read()
        p = run("transcode", out, "-o", out, "-f", "--engine", "builtin", "--depth", "2", "--workers", "1")
        check(p.returncode == 1 and b"would replace the input" in p.stderr and open(out, "rb").read() == before
              and not [f for f in os.listdir(tmp) if f.startswith("secret.ucz.")],
              "transcode IN -o IN -f refused, IN untouched: %r" % p.stderr)
        os.umask(0o027)
        p = run("decompress", "-", "-o", pgn, "-f", input=open(out, "rb").read())
        got = stat.S_IMODE(os.stat(pgn).st_mode)
        check(p.returncode == 0 and got == 0o640, "from stdin under umask 027: %o" % got)
    finally:
        os.umask(old_umask)


def escapes(tmp):
    """Item 9: list and ratings print control characters in tag values escaped."""
    pgn = os.path.join(tmp, "escape.pgn")
    open(pgn, "wb").write(b'[Event "party \x1b[2J\x1b]0;owned\x07"]\n[White "A\x1b[31m red"]\n'
                          b'[Black "B \xc2\x9b1m"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n')
    archive = os.path.join(tmp, "escape.ucz")
    p = run("compress", *FAST, pgn, "-o", archive)
    check(p.returncode == 0, "compress the escape game: %s" % err(p))
    for args in (["list", pgn], ["list", archive], ["ratings", pgn], ["ratings", archive]):
        p = run(*args)
        check(p.returncode == 0, "%s: %s" % (" ".join(args), err(p)))
        check(b"\x1b" not in p.stdout and b"\x07" not in p.stdout and b"\xc2\x9b" not in p.stdout,
              "%s prints no control characters: %r" % (args[0], p.stdout[:300]))
        check(b"\\x1b[31m" in p.stdout and b"\\x9b" in p.stdout, "%s shows them escaped: %r" % (args[0], p.stdout[:300]))
    p = run("list", pgn)
    check(b"\\x1b[2J\\x1b]0;owned\\x07" in p.stdout, "list escapes the event: %r" % p.stdout)
    # Item 15: an empty input (no game to sort) under UBSan.
    empty = os.path.join(tmp, "empty.pgn")
    open(empty, "wb").close()
    p = run("ratings", empty)
    check(p.returncode == 0 and b"runtime error" not in p.stderr, "ratings of an empty input: %s" % err(p))


def bombs(tmp):
    """Item 12: a compressed bomb is refused as it streams (file:line, flat memory);
    item 14: a game over the limit is skipped with --keep-going, the rest written."""
    zeros = (100 if SHORT else 300) << 20
    bomb = os.path.join(tmp, "bomb.pgn.zst")
    with open(bomb, "wb") as f:
        z = subprocess.Popen(["zstd", "-q", "-c"], stdin=subprocess.PIPE, stdout=f)
        z.stdin.write(SAMPLE_BYTES)
        chunk = bytes(1 << 20)
        for _ in range(zeros >> 20):
            z.stdin.write(chunk)
        z.stdin.close()
        z.wait()
    out = os.path.join(tmp, "bomb.ucz")
    p, mb, cpu = measured("compress", *FAST, bomb, "-o", out)
    e = err(p)
    print("bomb: %d-byte .zst of %d MB of zeros: exit %d, %.1f s CPU, peak %.0f MB: %s"
          % (os.path.getsize(bomb), zeros >> 20, p.returncode, cpu, mb, e.splitlines()[0] if e else ""))
    check(p.returncode == 1 and "bomb.pgn.zst:117:" in e and "limit" in e and "game 7" in e,
          "the bomb is refused naming file:line: %s" % e[:300])
    check(not os.path.exists(out), "nothing written for the refused bomb")
    check(mb < PEAK_MB, "the bomb cost %.0f MB (peak)" % mb)
    check(cpu < 120, "the bomb cost %.1f s of CPU" % cpu)
    p, mb, cpu = measured("compress", *FAST, "--keep-going", bomb, "-o", out)
    e = err(p)
    print("bomb with --keep-going: exit %d, %.1f s CPU, peak %.0f MB" % (p.returncode, cpu, mb))
    check(p.returncode == 1 and "1 game skipped" in e and os.path.exists(out), "--keep-going skips the bomb: %s" % e)
    check(mb < PEAK_MB, "the bomb with --keep-going cost %.0f MB (peak)" % mb)
    d = run("decompress", out, "-o", "-")
    check(d.stdout == SAMPLE_BYTES, "the games before the bomb come back byte for byte")
    os.remove(bomb)

    # The same bomb in xz and gzip (100 MB of zeros), read without an engine.
    for tool, ext in (("xz", "xz"), ("gzip", "gz")):
        path = os.path.join(tmp, "bomb.pgn." + ext)
        with open(path, "wb") as f:
            z = subprocess.Popen([tool, "-1", "-c"], stdin=subprocess.PIPE, stdout=f)
            z.stdin.write(SAMPLE_BYTES)
            for _ in range(100):
                z.stdin.write(bytes(1 << 20))
            z.stdin.close()
            z.wait()
        p, mb, cpu = measured("list", path)
        check(p.returncode == 1 and ("bomb.pgn.%s:117:" % ext) in err(p) and "limit" in err(p) and mb < PEAK_MB,
              "%s bomb refused (peak %.0f MB): %s" % (tool, mb, err(p)[:300]))
        os.remove(path)

    # A real game of 66 MiB of comments between good games.
    big = os.path.join(tmp, "big.pgn")
    game = b'[Event "big"]\n\n1. e4 ' + (b"{" + b"c" * (1 << 20) + b"}\n") * 66 + b"e5 *\n\n"
    open(big, "wb").write(SAMPLE_BYTES + game + SAMPLE_BYTES)
    out = os.path.join(tmp, "big.ucz")
    p = run("compress", *FAST, big, "-o", out)
    check(p.returncode == 1 and "big.pgn:" in err(p) and "limit" in err(p) and "--keep-going" in err(p)
          and not os.path.exists(out), "without --keep-going the run fails: %s" % err(p)[:300])
    p = run("compress", *FAST, "--keep-going", big, "-o", out)
    check(p.returncode == 1 and "game 7" in err(p) and "line 117" in err(p) and "1 game skipped" in err(p),
          "with --keep-going the game is skipped and reported: %s" % err(p)[:400])
    d = run("decompress", out, "-o", "-")
    check(d.returncode == 0 and d.stdout == SAMPLE_BYTES + SAMPLE_BYTES,
          "the other games come back byte for byte (%d bytes)" % len(d.stdout))
    os.remove(big)


def full_disk(tmp, archive):
    """Item 17: out-of-space messages name the output, not the input; split --at -5."""
    for args in (["decompress", archive, "-o", "/dev/full"], ["compress", *FAST, SAMPLE, "-o", "/dev/full"]):
        p = run(*args)
        check(p.returncode == 1 and "/dev/full" in err(p) and "No space left" in err(p),
              "%s to /dev/full names it: %s" % (args[0], err(p)))
    check(stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full is still a device")
    # A small tmpfs, where the mount is allowed: the error comes in the middle of the run.
    mnt = os.path.join(tmp, "small")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", mnt], capture_output=True).returncode != 0:
        print("skipped: no tmpfs mount")
        return
    try:
        src = os.path.join(tmp, "eight.pgn")
        open(src, "wb").write(SAMPLE_BYTES * 8)
        big = os.path.join(tmp, "eight.ucz")
        run("compress", *FAST, src, "-o", big)
        for args, name in ((["compress", *FAST, "--block-games", "6", src, "-o", os.path.join(mnt, "x.ucz")], "x.ucz"),
                           (["decompress", big, "-o", os.path.join(mnt, "x.pgn")], "x.pgn")):
            p = run(*args)
            last = err(p).strip().splitlines()
            named = [l for l in last if "No space left" in l]
            check(p.returncode == 1 and named and all(name in l for l in named) and
                  not any(os.path.basename(args[-3]) in l for l in named),
                  "%s into a full tmpfs names the output: %s" % (args[0], err(p)))
            check(os.listdir(mnt) == [], "nothing left in the full file system: %s" % os.listdir(mnt))
    finally:
        subprocess.run(["umount", mnt])


def main():
    tmp = tempfile.mkdtemp(prefix="ucizip-safe-io-")
    archive = os.path.join(tmp, "sample.ucz")
    p = run("compress", *STOCKFISH, SAMPLE, "-o", archive)
    check(p.returncode == 0, "compress the sample: %s" % err(p))
    text = run("decompress", archive, "-o", "-").stdout
    check(text == SAMPLE_BYTES, "the sample round trip")

    special_outputs(tmp, archive, text)
    closed_stdout(tmp, archive)
    closed_stdin(tmp, archive)
    escapes(tmp)
    full_disk(tmp, archive)
    p = run("split", SAMPLE, "--at", "-5", "--output-dir", os.path.join(tmp, "shards"))
    check(p.returncode == 2 and "--at" in err(p) and not os.path.exists(os.path.join(tmp, "shards")),
          "split --at -5 is refused: %s" % err(p))
    modes(tmp)
    bombs(tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
