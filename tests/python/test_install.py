"""The Python package as a Debian user gets it, without pip and without environment
variables: `meson install` (here into a staging folder) puts it in the site directory of
the Python that ran meson (the system's python3), which finds it there, and the package
loads the libucizip installed with it; then the README's offline command for a virtual
environment (pip, no network, no build isolation) installs it from python/.

    test_install.py BUILD_DIR SOURCE_ROOT PYTHON SAMPLE_PGN
"""
import os
import shutil
import subprocess
import sys
import tempfile

BUILD, SRC, PYTHON, SAMPLE = (os.path.abspath(a) for a in sys.argv[1:5])
sys.path.insert(0, os.path.join(SRC, "tests", "cli"))
import harness  # noqa: E402
from harness import check  # noqa: E402

# Run by the installed package: its version, where it and its library were loaded from,
# and a round trip through the builtin (no engine process).
PROBE = r"""
import os, sys, ucizip
print(ucizip.version())
print(os.path.realpath(ucizip.__file__))
print(next(os.path.realpath(l.split()[-1]) for l in open("/proc/self/maps") if "libucizip.so" in l))
ucizip.compress(sys.argv[1], "probe.ucz", engine="builtin", workers=1, force=True)
print(len(list(ucizip.open("probe.ucz").list())))
"""


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("UCIZIP_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHOME")}
    env.update(extra)
    return env


def probe(python, env, cwd):
    p = subprocess.run([python, "-c", PROBE, SAMPLE], env=env, cwd=cwd, capture_output=True, text=True)
    lines = p.stdout.splitlines()
    return p, lines if len(lines) == 4 else [None] * 4


def site_dirs(python):
    code = "import site; print('\\n'.join(site.getsitepackages()))"
    return subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def meson_install(tmp):
    stage = os.path.join(tmp, "stage")
    p = subprocess.run(["meson", "install", "-C", BUILD, "--destdir", stage, "--no-rebuild", "--quiet"],
                       capture_output=True, text=True)
    check(p.returncode == 0, "meson install: " + p.stderr[-1000:])
    pkgs = [root for root, dirs, files in os.walk(stage) if "__init__.py" in files and root.endswith("/ucizip")]
    check(len(pkgs) == 1, f"one ucizip package installed: {pkgs}")
    if len(pkgs) != 1:
        return
    site = os.path.dirname(pkgs[0])
    final = site[len(stage):]
    games = open(SAMPLE, "rb").read().count(b"[Event ")
    # Installed for real, the folder is one the system's python3 searches by itself.
    prefix = subprocess.run(["meson", "introspect", BUILD, "--buildoptions"], capture_output=True, text=True)
    if '"name": "prefix", "value": "/usr/local"' in prefix.stdout.replace("\n", ""):
        check(final in site_dirs(PYTHON), f"{final} is in {PYTHON}'s site directories {site_dirs(PYTHON)}")
    p, (version, pkg, lib, listed) = probe(PYTHON, clean_env(PYTHONPATH=site), tmp)
    check(p.returncode == 0, "the installed package imports and works: " + p.stderr[-1500:])
    check(version == "0.1.0" and pkg == os.path.realpath(os.path.join(site, "ucizip", "__init__.py"))
          and lib is not None and lib.startswith(os.path.realpath(stage)) and listed == str(games),
          f"the installed package with the installed library, no UCIZIP_LIBRARY or LD_LIBRARY_PATH: {p.stdout}")
    return lib


def venv_install(tmp, lib):
    """python3 -m venv --system-site-packages --without-pip v && v/bin/python -m pip install
    --no-index --no-build-isolation ./python (the system's pip, setuptools and wheel)."""
    code = "import importlib.util as u, sys; sys.exit(not all(map(u.find_spec, ('pip', 'setuptools', 'wheel', 'venv'))))"
    have = subprocess.run([PYTHON, "-c", code], capture_output=True)
    if have.returncode != 0:
        print(f"{PYTHON} lacks pip, setuptools, wheel or venv (python3-pip, python3-wheel): no venv install here")
        return
    venv = os.path.join(tmp, "v")
    source = os.path.join(tmp, "python")  # (setuptools writes its build folders beside the sources)
    shutil.copytree(os.path.join(SRC, "python"), source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    p = subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", "--without-pip", venv], capture_output=True,
                       text=True)
    check(p.returncode == 0, "venv: " + p.stderr[-500:])
    vpy = os.path.join(venv, "bin", "python")
    p = subprocess.run([vpy, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", source],
                       capture_output=True, text=True, cwd=tmp)
    check(p.returncode == 0, "pip install into the venv, offline: " + p.stderr[-1500:])
    # (the library as the loader finds it: here the staged one, through LD_LIBRARY_PATH)
    p, (version, pkg, _, listed) = probe(vpy, clean_env(LD_LIBRARY_PATH=os.path.dirname(lib)), tmp)
    check(p.returncode == 0 and version == "0.1.0" and pkg is not None and pkg.startswith(os.path.realpath(venv)),
          f"the venv's package: {p.stdout} {p.stderr[-1000:]}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        lib = meson_install(tmp)
        if lib:
            venv_install(tmp, lib)
    return harness.summary()


if __name__ == "__main__":
    sys.exit(main())
