#!/usr/bin/env python3
"""Checks the module dependency rules (tests/arch/include_rules.txt, explained in
doc/architecture.md) on every #include of src/, include/ and tools/: a module may include
its own headers, those of the modules its rule lists, and no other module's private
headers (*_internal.h); a third-party header only in the modules named for it. Known
violations are allowed file by file, and an allowance that is no longer needed is an error
too. A function declared in a module's header must be defined in that module's sources
(else a program linking the module alone does not link): one declared in src/A/*.h and
defined in src/B/*.c only is an error.

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
COMMENT_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# The name a function declaration or definition gives: the identifier before its first "("
# (not one in parentheses: "(*name)(...)" declares a pointer).
FUNCTION_RE = re.compile(r'(?:^|[\s*])([A-Za-z_]\w*)\s*\(')
NOT_FUNCTION = {"if", "for", "while", "switch", "return", "sizeof", "defined", "_Static_assert", "_Alignas",
                "__attribute__"}


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
    """'src/chess/board.c' -> 'chess'; 'include/ucizip.h' -> 'include'; 'tools/x.c' -> 'tools'."""
    parts = rel.split("/")
    if parts[0] in ("include", "tools"):
        return parts[0]
    return parts[1] if len(parts) > 2 else None


def header_name(rel):
    """The name rules use: 'oracle/oracle.h' for src/oracle/oracle.h, 'ucizip.h' for include/."""
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
    for top in ("src", "include", "tools"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")


def top_level(text):
    """text (a C file) without comments, string literals and preprocessor lines, as its
    top-level pieces: (piece, line, opens_body): the text between one ';' or '}' at brace
    depth 0 and the next, opens_body telling whether the piece ended with a '{' (a
    function's or an aggregate's body) rather than a ';'."""
    text = COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0)[0] == "/" else '""', text)
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', lambda m: "\n" * m.group(0).count("\n"), text, flags=re.M)
    depth, start, line, start_line = 0, 0, 1, 1
    for i, ch in enumerate(text):
        if ch == "\n":
            line += 1
        elif ch == "{":
            if depth == 0:
                yield text[start:i], start_line, True
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                start, start_line = i + 1, line
        elif ch == ";" and depth == 0:
            yield text[start:i], start_line, False
            start, start_line = i + 1, line


def function_name(piece):
    """The function a top-level piece declares or defines (None for anything else: a
    variable, a typedef, a struct, a static function)."""
    words = piece.split()
    if not words or "(" not in piece or words[0] in ("typedef", "static") or "=" in piece.split("(", 1)[0]:
        return None
    if re.match(r'\s*(struct|union|enum)\s+\w*\s*$', piece.split("(", 1)[0]):
        return None
    m = FUNCTION_RE.search(piece)
    if not m or m.group(1) in NOT_FUNCTION or piece[:m.start(1)].rstrip().endswith("("):
        return None
    return m.group(1)


def declared_elsewhere(root, files):
    """Functions declared in a module's header (src/A/*.h) and defined only in other
    modules' sources (src/B/*.c): one problem each, naming both. A function defined
    nowhere in the tree (a generated source's) is not judged."""
    declared = {}  # name -> (header, line)
    defined = {}  # name -> set of (module, file)
    for rel in files:
        module = module_of(rel)
        if not rel.startswith("src/") or module is None:
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for piece, line, body in top_level(text):
            name = function_name(piece)
            if not name:
                continue
            if rel.endswith(".h") and not body:
                declared.setdefault(name, (rel, line + piece[:piece.find(name)].count("\n")))
            elif rel.endswith(".c") and body and piece.rstrip().endswith(")"):
                defined.setdefault(name, set()).add((module, rel))
    problems = []
    for name, (header, line) in sorted(declared.items()):
        where = defined.get(name)
        if not where or module_of(header) in {m for m, _ in where}:
            continue
        others = sorted(where)
        problems.append("%s:%d: %s is declared in %s but defined in %s (%s)" %
                        (header, line, name, module_of(header), others[0][0], others[0][1]))
    return problems


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
    problems += declared_elsewhere(root, files)
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
