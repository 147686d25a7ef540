#!/usr/bin/env python3
"""The include checker is not fooled: on small made-up trees checked with the project's
real rules file, a forbidden include is caught and named by file:line (also through a
relative path, a private header, a third-party header, a module without rules, an
allowance used by another file, a program of tools/), an allowed one passes, an allowance
no longer needed is reported, and so is a function declared in one module's header but
defined in another module's sources.

    test_check_includes.py CHECKER RULES
"""
import os
import subprocess
import sys
import tempfile

failures = 0


def run(checker, rules, files):
    """Runs the checker on a tree made of files ({path: text}); returns (status, output)."""
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        p = subprocess.run([sys.executable, checker, "--root", root, "--rules", rules], capture_output=True,
                           text=True)
        return p.returncode, p.stdout + p.stderr


def expect(name, result, status, needles=()):
    global failures
    got_status, out = result
    missing = [n for n in needles if n not in out]
    if got_status != status or missing:
        failures += 1
        print("FAIL %s: status %d (wanted %d), missing %s\n%s" % (name, got_status, status, missing, out))
    else:
        print("ok   %s" % name)


# Every allow entry of the real rules must be used, so each tree carries the CLI files the
# allow list names, with exactly their allowed includes (and the headers they reach).
def base_tree(rules):
    files = {"include/ucizip.h": "/* api */\n"}
    allow = {}
    with open(rules) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("allow "):
                name, _, headers = line[len("allow "):].partition(":")
                allow[name.strip()] = headers.split()
    for name, headers in allow.items():
        files["src/" + name] = "".join('#include "%s"\n' % h for h in headers)
        for h in headers:
            files.setdefault("src/" + h, "/* header */\n")
    for module in ("chess", "common", "engine", "model", "codec", "builtin"):
        files.setdefault("src/%s/%s_stub.h" % (module, module), "/* header */\n")
    files.setdefault("src/oracle/oracle.h", "/* header */\n")
    files.setdefault("src/pgn/pgn.h", "/* header */\n")
    files.setdefault("src/engine/engine_internal.h", "/* header */\n")
    files.setdefault("src/codec/fixed.h", "/* header */\n")
    return files


def with_file(files, path, text):
    t = dict(files)
    t[path] = text
    return t


def main():
    checker, rules = sys.argv[1], sys.argv[2]
    base = base_tree(rules)
    expect("the allowed tree passes", run(checker, rules, base), 0, ["every one allowed"])
    expect("an allowed include passes",
           run(checker, rules, with_file(base, "src/model/m.c", '#include "chess/chess_stub.h"\n'
                                         '#include "fixed.h"\n#include "common/common_stub.h"\n')), 0)
    expect("the move model may not include the coders, only their fixed-point helpers",
           run(checker, rules, with_file(base, "src/model/m.c", '#include "codec/fixed.h"\n#include "codec/codec_stub.h"\n')),
           1, ["src/model/m.c:2: model may not include codec/codec_stub.h"])
    expect("a forbidden include is caught with its line",
           run(checker, rules, with_file(base, "src/chess/board.c", '/* x */\n#include "engine/engine_stub.h"\n')),
           1, ["src/chess/board.c:2: chess may not include engine/engine_stub.h"])
    expect("a relative path does not hide it",
           run(checker, rules, with_file(base, "src/chess/board.c", '  #  include "../engine/engine_stub.h"\n')),
           1, ["src/chess/board.c:1: chess may not include engine/engine_stub.h"])
    expect("another module's private header is caught even where the module is allowed",
           run(checker, rules, with_file(base, "src/gamecode/g.c", '#include "engine/engine_internal.h"\n')), 1,
           ["src/gamecode/g.c:1: gamecode may not include engine/engine_internal.h (the private header of engine)"])
    expect("the builtin sees the oracle interface, not the engine",
           run(checker, rules, with_file(base, "src/builtin/search.c",
                                         '#include "oracle/oracle.h"\n#include "engine/engine_stub.h"\n')),
           1, ["src/builtin/search.c:2: builtin may not include engine/engine_stub.h"])
    expect("a third-party header outside its modules is caught",
           run(checker, rules, with_file(base, "src/model/m.c", "#include <stdio.h>\n#include <uv.h>\n")), 1,
           ["src/model/m.c:2: <uv.h> is for engine only, not model"])
    expect("an allowance is for its own file only",
           run(checker, rules, with_file(base, "src/cli/new_cmd.c", '#include "pgn/pgn.h"\n')), 1,
           ["src/cli/new_cmd.c:1: cli may not include pgn/pgn.h"])
    expect("a module without rules is caught",
           run(checker, rules, with_file(base, "src/newmod/x.c", "int x;\n")), 1, ["module 'newmod' has no rule"])
    expect("an include that leads nowhere is caught",
           run(checker, rules, with_file(base, "src/chess/board.c", '#include "chess/missing.h"\n')), 1,
           ['src/chess/board.c:1: cannot find "chess/missing.h"'])
    expect("a program of tools/ is checked too",
           run(checker, rules, with_file(base, "tools/bench.c", '#include "chess/chess_stub.h"\n'
                                         '#include "engine/engine_internal.h"\n')), 1,
           ["tools/bench.c:2: tools may not include engine/engine_internal.h (the private header of engine)"])
    expect("a program of tools/ may include public headers and its own",
           run(checker, rules, {**base, "tools/bench.c": '#include "chess/chess_stub.h"\n#include "split.h"\n',
                                "tools/split.h": "/* header */\n"}), 0)
    # The engine module declaring what gamecode defines: a program linking the engine alone
    # would not link.
    engine_header = ("/* The oracle. */\n#include <stdint.h>\n\ntypedef struct uz_x uz_x;\n"
                     "static inline int uz_x_inline(int a) { return a; }\n"
                     "int uz_x_count(const uz_x *x);\n"
                     "uz_result uz_x_create(uz_x **out,\n                     int n);\n"
                     "extern int (*uz_x_hook)(int);\n")
    split = with_file(with_file(base, "src/engine/x.h", engine_header), "src/engine/x.c",
                      '#include "engine/x.h"\nint uz_x_count(const uz_x *x)\n{\n    return x != 0;\n}\n')
    split = with_file(split, "src/gamecode/x.c", '#include "engine/x.h"\n/* uz_x_count(x) */\n'
                      'static int helper(void) { return 1; }\nuz_result uz_x_create(uz_x **out, int n)\n{\n'
                      '    if (n) { *out = 0; }\n    return helper();\n}\n')
    expect("a function declared in one module and defined in another is caught",
           run(checker, rules, split), 1,
           ["src/engine/x.h:7: uz_x_create is declared in engine but defined in gamecode (src/gamecode/x.c)"])
    expect("only that one: declarations defined in their own module, inline ones and pointers pass",
           run(checker, rules, split), 1, ["1 include rule violations"])
    expect("defined in its own module, it passes",
           run(checker, rules, with_file(split, "src/gamecode/x.c", "/* moved */\n")
               | {"src/engine/x2.c": '#include "engine/x.h"\nuz_result uz_x_create(uz_x **out, int n)\n'
                                    '{\n    return n + (out != 0);\n}\n'}), 0)
    # The first allowance of the real rules (or, once they have none, one added to a copy of
    # them), its file fixed: the allowance must go.
    allowed = sorted(path for path in base if path.startswith("src/cli/"))
    if allowed:
        name = allowed[0][len("src/"):]
        first = base[allowed[0]].split("\n")[0].split('"')[1]
        fixed = dict(base)
        fixed[allowed[0]] = "/* no longer includes %s */\n" % first
        expect("an allowance no longer needed is reported", run(checker, rules, fixed), 1,
               ["'allow %s: %s' is no longer needed" % (name, first)])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            extended = os.path.join(tmp, "include_rules.txt")
            with open(rules) as f, open(extended, "w") as out:
                out.write(f.read() + "\nallow cli/old_cmd.c: pgn/pgn.h\n")
            fixed = with_file(base, "src/cli/old_cmd.c", "/* no longer includes pgn/pgn.h */\n")
            expect("an allowance no longer needed is reported", run(checker, extended, fixed), 1,
                   ["'allow cli/old_cmd.c: pgn/pgn.h' is no longer needed"])
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
