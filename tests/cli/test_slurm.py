#!/usr/bin/env python3
"""The Slurm driver end to end on a one-node cluster started by scripts/slurm-local.sh
(Debian's slurm-wlm and munge, 127.0.0.1): a sharded archive decompresses to exactly the
games of the single-process archive, and a failing shard is reported with its log.
Skipped, with the reason, where the Slurm packages are missing or the cluster cannot
start (not in CI, where scripts/setup.sh installs them)."""
import os
import shutil
import subprocess
import sys
import tempfile

from harness import CORPUS, check, summary

UCIZIP = os.path.abspath(sys.argv[1])
SRC = os.environ["UZ_SRC_ROOT"]


def skip(why):
    if os.environ.get("CI"):
        sys.exit("Slurm test cannot run in CI: %s" % why)
    print("skipped: %s" % why)
    sys.exit(77)


def main():
    game_file = os.path.join(CORPUS, "cat1_lichess_marathon_2025.pgn")
    if not os.path.exists(game_file):
        if os.environ.get("UZ_REQUIRE_CORPUS"):
            sys.exit("missing %s" % game_file)
        skip("no corpus")
    for exe in ("sbatch", "slurmctld", "slurmd", "munged"):
        if not shutil.which(exe) and not os.path.exists("/usr/sbin/" + exe):
            skip("%s is not installed (apt-get install slurm-wlm munge, or scripts/setup.sh)" % exe)
    if os.geteuid() != 0:
        skip("the one-node cluster needs root")
    tmp = tempfile.mkdtemp(prefix="ucizip-slurm-")
    env = dict(os.environ, UZ_SLURM_DIR=os.path.join(tmp, "cluster"), UZ_SLURM_PORT="26817", UCIZIP=UCIZIP)
    local = os.path.join(SRC, "scripts", "slurm-local.sh")
    p = subprocess.run(["bash", local, "start"], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        skip("the one-node Slurm cluster did not start: %s" % p.stderr.strip())
    env["SLURM_CONF"] = os.path.join(tmp, "cluster", "slurm.conf")
    driver = os.path.join(SRC, "scripts", "slurm-compress.sh")
    try:
        single = os.path.join(tmp, "single.ucz")
        subprocess.run([UCIZIP, "compress", game_file, "-o", single, "-q", "--depth", "1", "-j", "2"], check=True)
        sharded = os.path.join(tmp, "sharded.ucz")
        p = subprocess.run(["bash", driver, game_file, sharded, "--shards", "4", "--", "--depth", "1"], env=env,
                           capture_output=True, text=True, timeout=600)
        check(p.returncode == 0, "driver succeeds: %s" % p.stderr)
        if p.returncode == 0:
            info = subprocess.run([UCIZIP, "info", sharded], capture_output=True, text=True).stdout
            check("4 members" in info and "40 games" in info, "4 members, 40 games: %s" % info.strip())
            a = subprocess.run([UCIZIP, "decompress", "-c", single], capture_output=True).stdout
            b = subprocess.run([UCIZIP, "decompress", "-c", sharded], capture_output=True).stdout
            check(a == b and a.count(b"[Event ") == 40, "the sharded archive holds exactly the single archive's games")
            check(not os.path.exists(sharded + ".work"), "work directory removed after success")
        # Names holding shell syntax are data: nothing in them runs (test_drivers.py has more).
        hostile = os.path.join(tmp, "a$(touch PWNED) 'q\"; touch PWNED;\nb.ucz")
        p = subprocess.run(["bash", driver, game_file, hostile, "--shards", "2", "--", "--depth", "1"], env=env,
                           capture_output=True, text=True, timeout=600, cwd=tmp)
        pwned = [os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs if f == "PWNED"]
        check(p.returncode == 0 and not pwned, "hostile output name: driver succeeds, nothing run: %s %r" % (p.stderr, pwned))
        if p.returncode == 0:
            b = subprocess.run([UCIZIP, "decompress", "-c", hostile], capture_output=True).stdout
            check(b == open(game_file, "rb").read(), "hostile output name: the input's games, in order")
        # A failing shard: reported per shard with its log; no archive.
        bad = os.path.join(tmp, "bad.ucz")
        p = subprocess.run(["bash", driver, game_file, bad, "--shards", "2", "--", "--engine", "/nonexistent/engine"],
                           env=env, capture_output=True, text=True, timeout=300)
        check(p.returncode == 1 and not os.path.exists(bad), "failing shards: exit 1, no archive")
        check("shard 1 of 2" in p.stderr and "shard-0.log" in p.stderr and "/nonexistent/engine" in p.stderr,
              "failure names the shard, its log and the log's text: %s" % p.stderr)
    finally:
        subprocess.run(["bash", local, "stop"], env=env)
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
