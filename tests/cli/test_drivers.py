#!/usr/bin/env python3
"""The batch drivers (scripts/parallel-compress.sh, scripts/slurm-compress.sh) and what they
share (scripts/shards.sh): shards concatenated in shard order however many there are
(10,001 names, padded to the count's width as `split` pads them), and file names and option
values that hold shell syntax (`;`, `$()`, quotes, spaces, a newline) passed as data: no
command in them runs, and the archive holds the input's games in order. The Slurm driver
runs end to end in test_slurm.py (it needs a cluster); its job scripts are generated here
without one and run by bash as Slurm would run them."""
import os
import shutil
import subprocess
import sys
import tempfile

from harness import check, summary

UCIZIP = os.path.abspath(sys.argv[1])
SRC = os.environ["UZ_SRC_ROOT"]
SHARDS_SH = os.path.join(SRC, "scripts", "shards.sh")
SAMPLE = os.path.join(os.environ["UZ_TEST_DATA"], "sample.pgn")
# One name holding each kind of shell syntax (one driver run each: the runs start engines).
HOSTILE = ["x;touch PWNED;y a$(touch PWNED)b q'uo\"te `touch PWNED` sp ace new\nline"]


def bash(script, *args, cwd=None):
    return subprocess.run(["bash", "-c", script, "bash", *args], capture_output=True, cwd=cwd)


def pwned(root):
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files if f == "PWNED"]


def test_order(tmp):
    count = 10001
    names = bash('. "$1"; for ((k = 1; k <= $2; k++)); do uz_shard_name "$k" "$2"; echo; done', SHARDS_SH,
                 str(count)).stdout.decode().split("\n")[:-1]
    check(names == ["%05d" % k for k in range(1, count + 1)], "shard names: the number, the count's digits")
    few = bash('. "$1"; for k in 1 2 3; do uz_shard_name "$k" 3; echo; done', SHARDS_SH).stdout.decode().split()
    check(few == ["0001", "0002", "0003"], "shard names: at least four digits: %r" % few)
    # The same names as `ucizip split` writes.
    d = os.path.join(tmp, "split")
    subprocess.run([UCIZIP, "split", SAMPLE, "--shards", "3", "--output-dir", d, "-q"], check=True)
    check(sorted(os.listdir(d)) == [n + ".pgn" for n in few], "split names its shards so: %r" % os.listdir(d))
    # Past 9,999 shards split pads to the count's width, so that a glob (cat DIR/*) is in
    # shard order (on a memory file system where there is one: 10,005 files, each synced).
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else tmp
    with tempfile.TemporaryDirectory(dir=base) as many_split:
        d = os.path.join(many_split, "shards")
        subprocess.run([UCIZIP, "split", SAMPLE, "--shards", "10005", "--output-dir", d, "-q"], check=True)
        listed = sorted(os.listdir(d))
        check(listed == ["%05d.pgn" % k for k in range(1, 10006)], "split --shards 10005 names: %r" % listed[:3])
        p = bash('cat "$1"/*', d)
        check(p.stdout == open(SAMPLE, "rb").read(), "cat DIR/* of 10,005 shards is the input")
    d = os.path.join(tmp, "many")
    os.mkdir(d)
    for k, name in enumerate(names, 1):
        with open(os.path.join(d, name + ".ucz"), "w") as f:
            f.write("%d\n" % k)
    check(sorted(os.listdir(d)) == [n + ".ucz" for n in names], "byte order is shard order")
    p = bash('. "$1"; uz_cat_shards "$2" ucz "$3"', SHARDS_SH, d, str(count))
    check(p.returncode == 0 and p.stdout.decode().split() == [str(k) for k in range(1, count + 1)],
          "10,001 shards concatenated in shard order")
    os.unlink(os.path.join(d, "05000.ucz"))
    check(bash('. "$1"; uz_cat_shards "$2" ucz "$3"', SHARDS_SH, d, str(count)).returncode != 0,
          "a missing shard fails the concatenation")


def test_parallel(tmp, expected):
    if not shutil.which("parallel"):
        if os.environ.get("CI"):
            check(False, "GNU parallel missing in CI")
        print("note: GNU parallel not installed; parallel-compress.sh not tested", file=sys.stderr)
        return
    driver = os.path.join(SRC, "scripts", "parallel-compress.sh")
    env = dict(os.environ, UCIZIP=UCIZIP)
    for i, name in enumerate(HOSTILE):
        d = os.path.join(tmp, "par%d" % i)
        os.mkdir(d)
        src = os.path.join(d, name + " in.pgn")
        shutil.copy(SAMPLE, src)
        out = name + ".ucz"
        cache = name + ".lmdb"  # an option's value
        p = subprocess.run(["bash", driver, os.path.basename(src), out, "--shards", "2", "--jobs", "2", "--",
                            "--depth", "1", "--cache", cache], env=env, capture_output=True, cwd=d)
        got = subprocess.run([UCIZIP, "decompress", "-c", os.path.join(d, out)], capture_output=True).stdout
        check(p.returncode == 0 and got == expected,
              "parallel driver, %r: the input's games in order (%s)" % (name, p.stderr.decode(errors="replace")[-300:]))
        check(os.path.exists(os.path.join(d, cache)), "%r: the option's value reached compress as given" % name)
        check(not pwned(tmp) and not pwned(os.getcwd()), "%r: nothing in the names was run" % name)


def test_slurm_scripts(tmp, expected):
    """The Slurm driver's job scripts, generated with stand-ins for sbatch and squeue that
    only record (--no-wait), then run by bash as Slurm runs them."""
    fake_bin = os.path.join(tmp, "bin")
    os.mkdir(fake_bin)
    with open(os.path.join(fake_bin, "sbatch"), "w") as f:
        f.write('#!/bin/sh\nprintf "%s\\n" "$@" >> "$UZ_FAKE_SBATCH_LOG"\necho 42\n')
    os.chmod(os.path.join(fake_bin, "sbatch"), 0o755)
    driver = os.path.join(SRC, "scripts", "slurm-compress.sh")
    for i, name in enumerate(HOSTILE):
        d = os.path.join(tmp, "slurm%d" % i)
        os.mkdir(d)
        src = os.path.join(d, name + " in.pgn")
        shutil.copy(SAMPLE, src)
        out = os.path.join(d, name + ".ucz")
        env = dict(os.environ, UCIZIP=UCIZIP, PATH=fake_bin + ":" + os.environ["PATH"],
                   UZ_FAKE_SBATCH_LOG=os.path.join(tmp, "sbatch%d.log" % i))
        p = subprocess.run(["bash", driver, src, out, "--shards", "2", "--no-wait", "--", "--depth", "1", "--cache",
                            os.path.join(d, name + ".lmdb")], env=env, capture_output=True)
        check(p.returncode == 0, "slurm driver %r submits: %s" % (name, p.stderr.decode(errors="replace")))
        work = out + ".work"
        for task in (0, 1):
            subprocess.run(["bash", os.path.join(work, "shard.sh")], env=dict(env, SLURM_ARRAY_TASK_ID=str(task)),
                           capture_output=True)
        m = subprocess.run(["bash", os.path.join(work, "merge.sh")], env=env, capture_output=True)
        got = subprocess.run([UCIZIP, "decompress", "-c", out], capture_output=True).stdout
        check(m.returncode == 0 and got == expected,
              "slurm job scripts, %r: the input's games in order (%s)" % (name, m.stderr.decode(errors="replace")))
        check(not pwned(tmp) and not pwned(os.getcwd()), "%r: nothing in the names was run" % name)


def main():
    tmp = tempfile.mkdtemp(prefix="ucizip-drivers-")
    try:
        expected = open(SAMPLE, "rb").read()
        test_order(tmp)
        test_parallel(tmp, expected)
        test_slurm_scripts(tmp, expected)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
