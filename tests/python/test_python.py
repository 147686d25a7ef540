"""The Python package (python/ucizip) over the built libucizip, with the real engine and
corpus files: pip installs it; the README's example runs; the games' texts put together
are the input byte for byte; tags agree with pgn-extract's reading of the same file;
listing and filtering start no engine; one game is extracted; an iterable of PGN texts
is compressed; failures are ucizip.Error with the library's message.

    test_python.py SOURCE_ROOT   (UCIZIP_LIBRARY: the build's libucizip.so)
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

SRC = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(SRC, "tests", "cli"))
import harness  # noqa: E402
from harness import check  # noqa: E402

LIB = os.environ["UCIZIP_LIBRARY"]
PGN_EXTRACT = shutil.which("pgn-extract") or shutil.which("/usr/games/pgn-extract")
TAG_LINE = re.compile(rb'^\[(\w+)\s+"(.*)"\]\s*$')


def pgn_extract_tags(path):
    """Each game's tags as pgn-extract reads the file (its export: tag lines, then the
    moves), as dicts of str (surrogateescape, as the package gives them)."""
    out = subprocess.run([PGN_EXTRACT, "-s", path], capture_output=True, check=True).stdout
    games, current = [], None
    for line in out.split(b"\n"):
        m = TAG_LINE.match(line)
        if m:
            if current is None:
                current = {}
                games.append(current)
            value = re.sub(rb'\\(["\\])', rb"\1", m.group(2)).decode("utf-8", "surrogateescape")
            current.setdefault(m.group(1).decode(), value)
        elif line.strip():
            current = None
    return games


def same_tags(ours, theirs):
    """Our tags are pgn-extract's, less the roster tags it adds as "?" where the input
    has none."""
    for name, value in ours.items():
        if theirs.get(name) != value:
            return False
    return all(v.strip("?.") == "" for n, v in theirs.items() if n not in ours)


def can_build_wheels(python):
    """Whether python has pip and a setuptools that builds wheels (wheel, or setuptools
    70.1 and later, which has bdist_wheel itself)."""
    code = "import setuptools\ntry:\n    import wheel\nexcept ImportError:\n    import setuptools.command.bdist_wheel\n"
    return (subprocess.run([python, "-c", code], capture_output=True).returncode == 0 and
            subprocess.run([python, "-m", "pip", "--version"], capture_output=True).returncode == 0)


def pip_install(target):
    """pip installs python/ into target without the network (with this python, or
    Debian's when this one cannot build wheels offline); returns the import path."""
    python = next((p for p in (sys.executable, "/usr/bin/python3") if os.path.exists(p) and can_build_wheels(p)),
                  None)
    if python is None:
        print("no pip that builds wheels offline here: the package is used from the source tree")
        return os.path.join(SRC, "python")
    # (from a copy: setuptools writes its build folders beside the sources)
    source = os.path.join(os.path.dirname(target), "python-src")
    shutil.copytree(os.path.join(SRC, "python"), source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    p = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                        "--no-index", "--target", target, source], capture_output=True, text=True)
    check(p.returncode == 0, "pip install ./python: " + p.stderr[-2000:])
    check(os.path.exists(os.path.join(target, "ucizip", "__init__.py")), "pip put the package in place")
    return target


def readme_example():
    text = open(os.path.join(SRC, "python", "README.md"), encoding="utf-8").read()
    m = re.search(r"```python\n(.*?)```", text, re.S)
    check(m is not None, "python/README.md has a python example")
    return m.group(1)


def check_loader(pkg_path, tmp):
    """Without UCIZIP_LIBRARY the package finds libucizip.so.0 as the system's loader
    does (here through LD_LIBRARY_PATH); a wrong UCIZIP_LIBRARY is an error naming it."""
    env = {k: v for k, v in os.environ.items() if k != "UCIZIP_LIBRARY"}
    env["PYTHONPATH"] = pkg_path
    env["LD_LIBRARY_PATH"] = os.path.dirname(os.path.realpath(LIB))
    p = subprocess.run([sys.executable, "-c", "import ucizip; print(ucizip.version())"], env=env,
                       capture_output=True, text=True, cwd=tmp)
    check(p.returncode == 0 and p.stdout.strip() == "0.1.0", "found by the loader: " + p.stdout + p.stderr)
    env["UCIZIP_LIBRARY"] = os.path.join(tmp, "no-such-libucizip.so")
    p = subprocess.run([sys.executable, "-c", "import ucizip"], env=env, capture_output=True, text=True, cwd=tmp)
    check(p.returncode != 0 and "no-such-libucizip.so" in p.stderr, "a wrong UCIZIP_LIBRARY: " + p.stderr[-300:])


def check_readme(pkg_path, archive, tmp, expected):
    """The README's example, verbatim, in a folder holding games.ucz."""
    shutil.copy(archive, os.path.join(tmp, "games.ucz"))
    env = dict(os.environ, PYTHONPATH=pkg_path)
    p = subprocess.run([sys.executable, "-c", readme_example()], env=env, capture_output=True, text=True, cwd=tmp)
    check(p.returncode == 0, "README example ran: " + p.stderr[-1000:])
    want = ["%d %s - %s %s" % (i + 1, t["White"], t["Black"], t["Result"]) for i, t in enumerate(expected)]
    check(p.stdout.splitlines() == want, "README example printed every game's players and result")


def check_archive(ucizip, path, archive):
    """Reading back a file's archive: bytes, tags, filter, one game, engine-free listing."""
    data = open(path, "rb").read()
    theirs = pgn_extract_tags(path) if PGN_EXTRACT else None
    a = ucizip.open(archive, workers=2)
    records = list(a.games(all_records=True))
    check(b"".join(g.raw for g in records) == data, f"{path}: the records' bytes are the input's")
    check("".join(g.pgn for g in records).encode("utf-8", "surrogateescape") == data,
          f"{path}: .pgn (str) gives the input's bytes back")
    games = [g for g in records if g.is_game]
    check(len(a) == len(records), f"{path}: len() counts the records ({len(a)} vs {len(records)})")
    if theirs is not None:
        check(len(theirs) == len(games), f"{path}: {len(games)} games, pgn-extract reads {len(theirs)}")
        bad = [g.number for g, t in zip(games, theirs) if not same_tags(g.tags, t)]
        check(not bad, f"{path}: decoded games' tags agree with pgn-extract's (not games {bad[:5]})")
    # The listing: engine-free, the same tags but the derived value unknown.
    listed = list(ucizip.open(archive, engine="/nonexistent/engine").list())
    check([e.number for e in listed] == [g.number for g in games], f"{path}: list() numbers the games")
    derived = 0
    for e, g in zip(listed, games):
        derived += sum(1 for v in e.tags.values() if v is None)
        check({k: v for k, v in e.tags.items() if v is not None} ==
              {k: v for k, v in g.tags.items() if e.tags.get(k) is not None} and e.tags.keys() == g.tags.keys(),
              f"{path}: game {g.number}: list()'s tags are the decoded game's")
    # A filter: by one tag, engine-free and decoded; one game by number.
    white = games[len(games) // 2].tags["White"]
    want = [g.number for g in games if g.tags.get("White") == white]
    check([e.number for e in a.list(filter={"White": white})] == want, f"{path}: list(filter) White={white}")
    got = list(a.games(filter={"White": white}))
    check([g.number for g in got] == want and all(g.raw == records[g.number - 1].raw for g in got),
          f"{path}: games(filter) decodes the matching games")
    check([e.number for e in a.list(filter=lambda t: t.get("White") == white)] == want, "a predicate filter")
    n = games[-1].number
    one = a.game(n)
    check(one.raw == records[n - 1].raw and one.tags == records[n - 1].tags, f"{path}: game({n}) alone")
    a.close()
    return games, derived


def check_errors(ucizip, tmp, clk):
    try:
        ucizip.open(clk).list().__next__()
        check(False, "a PGN file opened as an archive is refused")
    except ucizip.Error as e:
        check(clk in str(e) and e.code < 0, "not an archive: " + str(e))
    a = ucizip.open(os.path.join(tmp, "clk.ucz"), engine="/nonexistent/engine")
    try:
        a.game(1)
        check(False, "decoding with a missing engine fails")
    except ucizip.Error as e:
        check("/nonexistent/engine" in str(e), "a missing engine is named: " + str(e))
    out = os.path.join(tmp, "never.ucz")
    try:
        ucizip.compress(["1. e4 e5 2. Ke3 *\n"], out, bad_games=2)
        check(False, "an illegal move with bad_games=STOP fails")
    except ucizip.Error as e:
        check("Ke3" in str(e) or "illegal" in str(e), "an illegal move: " + str(e))
    check(not os.path.exists(out) and not [f for f in os.listdir(tmp) if f.endswith(".tmp")],
          "nothing is left of a failed compress")


def engine_children():
    """The processes this one started that are still there (engines, not zombies)."""
    kids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            kids.append(int(pid))
    return kids


def check_compress_outputs(ucizip, tmp, clk):
    """compress() follows doc/safety.md: an existing output needs force=True, the input is
    never the output, devices and FIFOs are written into, the input's mode is kept; a
    failed compress leaves no engine process running."""
    fast = dict(engine="builtin", workers=1)
    want = os.path.join(tmp, "want.ucz")
    ucizip.compress(clk, want, **fast)
    archive = open(want, "rb").read()
    src = os.path.join(tmp, "secret.pgn")
    shutil.copy(clk, src)
    os.chmod(src, 0o600)
    data = open(src, "rb").read()

    out = os.path.join(tmp, "exists.ucz")
    open(out, "wb").write(b"precious")
    try:
        ucizip.compress(src, out, **fast)
        check(False, "an existing output is replaced without force")
    except FileExistsError as e:
        check(open(out, "rb").read() == b"precious" and "force" in str(e), "an existing output refused: %s" % e)
    ucizip.compress(src, out, force=True, **fast)
    check(open(out, "rb").read() == archive and stat.S_IMODE(os.stat(out).st_mode) == 0o600,
          "force=True replaces it, with the input's mode 0600")
    for force in (False, True):
        try:
            ucizip.compress(src, src, force=force, **fast)
            check(False, "compress(src, src) replaced its input")
        except ValueError as e:
            check(open(src, "rb").read() == data and "input" in str(e), "the input as output refused: %s" % e)
    ucizip.compress(src, "/dev/null", **fast)
    check(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null written into, still a device")
    fifo = os.path.join(tmp, "pipe")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    ucizip.compress(src, fifo, **fast)
    reader.join(60)
    check(got == [archive] and stat.S_ISFIFO(os.stat(fifo).st_mode), "a FIFO written into, still a FIFO")
    check(not [f for f in os.listdir(tmp) if f.endswith(".tmp")], "no temporary file left")

    # A missing output folder: an error, and no engine process left behind.
    before = engine_children()
    try:
        ucizip.compress(src, os.path.join(tmp, "no-such-dir", "x.ucz"), workers=2)
        check(False, "compress into a missing folder succeeded")
    except FileNotFoundError:
        pass
    time.sleep(0.5)
    left = sorted(set(engine_children()) - set(before))
    check(not left, "a failed compress leaves no engine process (%s)" % left)


def check_threads(ucizip, archive):
    """One Archive from several threads: game(n) takes turns, every game comes back right."""
    with ucizip.open(archive, workers=1) as a:
        want = {g.number: g.raw for g in a.games()}
    numbers = sorted(want)
    wrong, errors = [], []
    with ucizip.open(archive, workers=1) as shared:
        def work(k):
            try:
                for i in range(12):
                    n = numbers[(k * 5 + i * 3) % len(numbers)]
                    if shared.game(n).raw != want[n]:
                        wrong.append(n)
            except Exception as e:  # noqa: BLE001 (any failure is the test's)
                errors.append(repr(e))
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    check(not wrong and not errors, f"game(n) from 4 threads on one Archive: wrong {wrong[:5]}, {errors[:2]}")
    with ucizip.open(archive) as a:
        for bad, kind in ((-1, IndexError), (0, IndexError), ("3", TypeError), (2.0, TypeError)):
            try:
                a.game(bad)
                check(False, f"game({bad!r}) answered")
            except kind as e:
                check(str(bad) in str(e) or type(bad).__name__ in str(e), f"game({bad!r}): {e}")


def main():
    harness.corpus("cat1_chesscom_live_clk.pgn")
    clk = harness.corpus("cat1_chesscom_live_clk.pgn")
    odds = harness.corpus("cat4_pgn_extract_odds_mixed_latin1_utf8.pgn")
    with tempfile.TemporaryDirectory() as tmp:
        pkg = pip_install(os.path.join(tmp, "site"))
        sys.path.insert(0, pkg)
        import ucizip
        check(ucizip.__file__.startswith(pkg), "the installed package is the one imported")
        check_loader(pkg, tmp)
        # A file compressed by path; its games read back.
        stats = ucizip.compress(clk, os.path.join(tmp, "clk.ucz"), workers=2)
        check(stats["games"] == 17, f"compress(path): 17 games ({stats['games']})")
        games, derived = check_archive(ucizip, clk, os.path.join(tmp, "clk.ucz"))
        check(derived > 0, f"list() leaves the values derived from the moves unknown ({derived} of them)")
        # game(n) in the middle of iterating games() leaves the iteration alone.
        with ucizip.open(os.path.join(tmp, "clk.ucz"), workers=2) as a:
            it = a.games()
            first = next(it)
            last = a.game(games[-1].number)
            second = next(it)
            it.close()
        check(first.number == 1 and second.number == games[1].number and second.pgn == games[1].pgn and
              last.pgn == games[-1].pgn, "game(n) inside games()")
        check_readme(pkg, os.path.join(tmp, "clk.ucz"), tmp, [g.tags for g in games])
        # An iterable of texts (each game's bytes on its own, Latin-1 names included).
        data = open(odds, "rb").read()
        starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", data)]
        pieces = [data[s:e] for s, e in zip([0] + starts[1:], starts[1:] + [len(data)])]
        ucizip.compress(iter(pieces), os.path.join(tmp, "odds.ucz"), workers=2)
        check_archive(ucizip, odds, os.path.join(tmp, "odds.ucz"))
        check_errors(ucizip, tmp, clk)
        check_compress_outputs(ucizip, tmp, clk)
        check_threads(ucizip, os.path.join(tmp, "want.ucz"))
        # The example script hands games to python-chess where it is installed.
        env = dict(os.environ, PYTHONPATH=pkg)
        p = subprocess.run([sys.executable, os.path.join(SRC, "python", "examples", "to_python_chess.py"),
                            os.path.join(tmp, "clk.ucz"), games[0].tags["White"]], env=env, capture_output=True,
                           text=True)
        lines = p.stdout.splitlines()
        check(p.returncode == 0 and lines and lines[0].startswith("1: "), "example script: " + p.stderr[-500:])
        try:
            import chess  # noqa: F401
            check(all(" | " in line for line in lines), "the example parsed the games with python-chess")
        except ImportError:
            print("python-chess is not installed: the example ran without it")
    return harness.summary()


if __name__ == "__main__":
    sys.exit(main())
