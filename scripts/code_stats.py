#!/usr/bin/env python3
"""Size of the code: lines per module (a folder of src/, and the public headers) and the
longest functions, counted from the opening line of a top-level function to its closing
brace.

    scripts/code_stats.py [--top 10] [ROOT]
"""
import argparse
import os
import re

# A top-level function definition starts at column 0 with a type and a name followed by
# "(", and its body opens with "{" alone at column 0 on a later line (the style here).
FUNC_START = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\(")


def functions(path):
    """(name, first line, length in lines) of every top-level function of a C file."""
    out = []
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    name, start, depth, in_body = None, 0, 0, False
    for i, line in enumerate(lines, 1):
        if not in_body:
            m = FUNC_START.match(line)
            if m and not line.rstrip().endswith(";") and not line.startswith(("typedef", "struct", "static const", "#")):
                name, start = m.group(1), i
            if line.startswith("{") and name:
                in_body, depth = True, 0
        if in_body:
            depth += line.count("{") - line.count("}")
            if depth == 0:
                out.append((name, start, i - start + 1))
                name, in_body = None, False
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("root", nargs="?", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    modules = {}
    funcs = []
    for base in ("src", "include"):
        for dirpath, _, files in os.walk(os.path.join(args.root, base)):
            for f in files:
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, args.root)
                module = os.path.dirname(rel)
                n = sum(1 for _ in open(path, encoding="utf-8", errors="replace"))
                files_n, lines_n = modules.get(module, (0, 0))
                modules[module] = (files_n + 1, lines_n + n)
                if f.endswith(".c"):
                    funcs += [(length, rel, first, name) for name, first, length in functions(path)]
    print("| module | files | lines |\n|---|---|---|")
    for module in sorted(modules):
        print("| %s | %d | %d |" % (module, *modules[module]))
    print("| total | %d | %d |" % (sum(v[0] for v in modules.values()), sum(v[1] for v in modules.values())))
    funcs.sort(reverse=True)
    print("\n| longest functions | lines |\n|---|---|")
    for length, rel, first, name in funcs[:args.top]:
        print("| %s (%s:%d) | %d |" % (name, rel, first, length))


if __name__ == "__main__":
    main()
