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
