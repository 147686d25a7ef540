"""What the end-to-end test scripts share: the program under test, corpus files, and
counting checks. A script calls `use(path)` once, then `check`, `run`, `corpus`, and
ends with `sys.exit(summary())`."""
import os
import subprocess
import sys

UCIZIP = None
CORPUS = os.environ.get("UZ_CORPUS_DIR", "")
passed = failed = 0


def use(program):
    """Sets the ucizip program that run() calls."""
    global UCIZIP
    UCIZIP = program


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)


def run_cmd(cmd, input=None, ok=True, cwd=None):
    """Runs cmd (a list); with ok, a non-zero exit is a failed check naming its stderr."""
    p = subprocess.run(cmd, input=input, capture_output=True, cwd=cwd)
    if ok and p.returncode != 0:
        check(False, "%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace")))
    return p


def run(*args, input=None, ok=True, cwd=None):
    """Runs ucizip with args."""
    return run_cmd([UCIZIP, *args], input=input, ok=ok, cwd=cwd)


def corpus(name):
    """The path of a corpus file; without the corpus the test is skipped (exit 77), or
    fails when UZ_REQUIRE_CORPUS is set (CI)."""
    path = os.path.join(CORPUS, name)
    if not os.path.exists(path):
        if os.environ.get("UZ_REQUIRE_CORPUS"):
            sys.exit("missing %s" % path)
        print("skipped: no corpus")
        sys.exit(77)
    return path


def summary():
    """Prints the counts; the exit status (1 if any check failed)."""
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


# Runs a command in a child of its own and reports that child's peak memory and CPU time
# (the engine included; the machine may be loaded: CPU time, not wall time, is what a run costs).
_MEASURE = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True)
sys.stdout.buffer.write(p.stdout)
sys.stderr.buffer.write(p.stderr)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write("\\nMEASURED %d %.3f\\n" % (u.ru_maxrss, u.ru_utime + u.ru_stime))
sys.exit(p.returncode)
"""


def measured(program, *args, timeout=None):
    """Runs program with args: (completed process with the measurement cut from stderr,
    peak MB, CPU seconds)."""
    p = subprocess.run([sys.executable, "-c", _MEASURE, program, *args], capture_output=True, timeout=timeout)
    head, _, tail = p.stderr.rpartition(b"\nMEASURED ")
    rss, cpu = tail.split()
    p.stderr = head
    return p, int(rss) / 1024, float(cpu)
