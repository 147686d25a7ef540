#!/usr/bin/env python3
"""Checks the module dependency rules (tests/arch/include_rules.txt, explained in
doc/architecture.md) on every #include of src/ and include/: a module may include its own
headers, those of the modules its rule lists, and no other module's private headers
(*_internal.h); a third-party header only in the modules named for it. Known violations
are allowed file by file, and an allowance that is no longer needed is an error too.

    check_includes.py [--root DIR] [--rules FILE]

Prints one line per problem (file:line: what) and exits 1 if there is any, else prints a
summary and exits 0. DIR defaults to the source tree holding this script, FILE to
DIR/tests/arch/include_rules.txt.
"""
import argparse
import os
import re
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


class Rules:
    def __init__(self):
        self.allowed = {}  # module -> set of modules and headers it may include
        self.system = {}  # third-party header -> set of modules
        self.allow = {}  # file (relative to src/) -> set of headers
        self.allow_line = {}  # file -> line of its allow entry


def parse_rules(path):
    rules = Rules()
    errors = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            head, sep, rest = line.partition(":")
            words = rest.split()
            if not sep:
                errors.append("%s:%d: expected 'NAME: ...'" % (path, n))
            elif head.startswith("system "):
                rules.system[head[len("system "):].strip()] = set(words)
            elif head.startswith("allow "):
                name = head[len("allow "):].strip()
                rules.allow.setdefault(name, set()).update(words)
                rules.allow_line[name] = n
            elif " " in head.strip():
                errors.append("%s:%d: unknown rule '%s'" % (path, n, head))
            else:
                rules.allowed[head.strip()] = set(words)
    return rules, errors


def module_of(rel):
    """'src/chess/board.c' -> 'chess'; 'include/ucizip.h' -> 'include'."""
    parts = rel.split("/")
    if parts[0] == "include":
        return "include"
    return parts[1] if len(parts) > 2 else None


def header_name(rel):
    """The name rules use: 'engine/oracle.h' for src/engine/oracle.h, 'ucizip.h' for include/."""
    return rel.split("/", 1)[1]


def resolve(root, includer, target, by_basename):
    """The tree path (relative to root) an #include "target" in includer reaches, or None:
    the includer's folder first, then src/ and include/ (the build's include paths), then
    a header of that unique name in src/ (a module's extra include folder)."""
    for base in (os.path.dirname(includer), "src", "include"):
        rel = os.path.normpath(os.path.join(base, target))
        if not rel.startswith("..") and os.path.isfile(os.path.join(root, rel)):
            return rel.replace(os.sep, "/")
    found = by_basename.get(os.path.basename(target), [])
    return found[0] if len(found) == 1 and "/" not in target else None


def source_files(root):
    for top in ("src", "include"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")


def check(root, rules):
    problems = []
    files = sorted(source_files(root))
    by_basename = {}
    for rel in files:
        if rel.startswith("src/"):
            by_basename.setdefault(os.path.basename(rel), []).append(rel)
    used_allow = set()
    unruled = set()
    count = 0
    for rel in files:
        module = module_of(rel)
        if module is None:
            problems.append("%s: a file outside any module folder" % rel)
            continue
        if module not in rules.allowed:
            if module not in unruled:
                problems.append("%s: module '%s' has no rule in the rules file" % (rel, module))
                unruled.add(module)
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        for n, line in enumerate(lines, 1):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            count += 1
            where = "%s:%d" % (rel, n)
            if m.group(1) == "<":
                allowed = rules.system.get(m.group(2))
                if allowed is not None and module not in allowed:
                    problems.append("%s: <%s> is for %s only, not %s" % (where, m.group(2), " ".join(sorted(allowed)),
                                                                          module))
                continue
            target = resolve(root, rel, m.group(2), by_basename)
            if target is None:
                problems.append('%s: cannot find "%s"' % (where, m.group(2)))
                continue
            to_module = module_of(target)
            if to_module == module:
                continue
            header = header_name(target)
            private = os.path.basename(target).endswith("_internal.h")
            if not private and (to_module in rules.allowed[module] or header in rules.allowed[module]):
                continue
            src_rel = rel.split("/", 1)[1]
            if header in rules.allow.get(src_rel, ()):
                used_allow.add((src_rel, header))
                continue
            why = "the private header of %s" % to_module if private else "not in its rule"
            problems.append("%s: %s may not include %s (%s)" % (where, module, header, why))
    for name in sorted(rules.allow):
        for header in sorted(rules.allow[name] - {h for (f, h) in used_allow if f == name}):
            problems.append("rules line %d: 'allow %s: %s' is no longer needed: remove it" %
                            (rules.allow_line[name], name, header))
    return problems, len(files), count


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..")))
    ap.add_argument("--rules")
    args = ap.parse_args()
    rules_path = args.rules or os.path.join(args.root, "tests", "arch", "include_rules.txt")
    rules, problems = parse_rules(rules_path)
    if not problems:
        found, n_files, n_includes = check(args.root, rules)
        problems += found
    for p in problems:
        print(p)
    if problems:
        print("%d include rule violations (rules: %s)" % (len(problems), rules_path))
        return 1
    print("%d files, %d includes: every one allowed by %s" % (n_files, n_includes, rules_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
