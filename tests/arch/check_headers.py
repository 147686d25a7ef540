#!/usr/bin/env python3
"""Every header stands alone: a file that includes one header (twice, for its include
guard) compiles with nothing before it, under the project's warnings made errors. A
header that needs another to be included first would break whoever includes it next.

    check_headers.py --root SRC --build BUILD -- CC [CC ARGS...]

Covers the public header (include/ucizip.h) and every header of src/; a generated table
meant to be included inside a function or after its types is a .inc, not a header."""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys
import tempfile

FLAGS = ["-std=c17", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-Wall", "-Wextra",
         "-Wmissing-prototypes", "-Wshadow", "-Werror", "-fsyntax-only"]


def headers(root):
    """(path, the name to include it by) of every header checked."""
    out = [(os.path.join(root, "include", "ucizip.h"), "ucizip.h")]
    for path in sorted(glob.glob(os.path.join(root, "src", "*", "*.h"))):
        out.append((path, os.path.relpath(path, os.path.join(root, "src"))))
    return out


def check(cc, includes, name, workdir):
    """The compiler's complaint about a file including name alone, or None."""
    src = os.path.join(workdir, name.replace("/", "_") + ".c")
    with open(src, "w") as f:
        f.write(f'#include "{name}"\n#include "{name}"\n')
    done = subprocess.run(cc + FLAGS + includes + [src], capture_output=True, text=True)
    return None if done.returncode == 0 else done.stderr.strip().splitlines()[0]


def self_test(cc):
    """The check fails a header that needs another first and passes one that does not."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "include"))
        os.makedirs(os.path.join(root, "src", "mod"))
        with open(os.path.join(root, "include", "ucizip.h"), "w") as f:
            f.write("#ifndef U_H\n#define U_H\nint uz_ok(void);\n#endif\n")
        with open(os.path.join(root, "src", "mod", "good.h"), "w") as f:
            f.write("#ifndef G_H\n#define G_H\n#include <stdint.h>\nuint32_t uz_good(void);\n#endif\n")
        with open(os.path.join(root, "src", "mod", "bad.h"), "w") as f:
            f.write("#ifndef B_H\n#define B_H\nuint32_t uz_bad(void);\n#endif\n")
        with open(os.path.join(root, "src", "mod", "unguarded.h"), "w") as f:
            f.write("#include <stdint.h>\ntypedef struct uz_t { int x; } uz_t;\n")
        with tempfile.TemporaryDirectory() as workdir:
            got = {name: check(cc, ["-I" + os.path.join(root, "include"), "-I" + os.path.join(root, "src")],
                               name, workdir) is None for _, name in headers(root)}
    want = {"ucizip.h": True, "mod/good.h": True, "mod/bad.h": False, "mod/unguarded.h": False}
    print("self-test:", "ok" if got == want else f"expected {want}, got {got}")
    return 0 if got == want else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root")
    ap.add_argument("--build")
    ap.add_argument("--self-test", action="store_true", help="check the checker on made-up headers")
    ap.add_argument("cc", nargs="+")
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.cc)
    root = os.path.abspath(args.root)
    includes = ["-I" + os.path.join(root, "include"), "-I" + os.path.join(root, "src"),
                "-I" + args.build, "-I" + os.path.join(args.build, "src")]
    todo = headers(root)
    with tempfile.TemporaryDirectory() as workdir, concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda h: (h[1], check(args.cc, includes, h[1], workdir)), todo))
    failed = [(name, why) for name, why in results if why]
    for name, why in failed:
        print(f"{name} does not compile alone: {why}")
    print(f"{len(todo) - len(failed)} of {len(todo)} headers compile alone")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
