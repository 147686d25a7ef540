#!/usr/bin/env python3
"""The documentation agrees with the program: every command of `ucizip --help` has a
section in the man page (doc/ucizip.1) and is completed by the bash completion
(completions/ucizip, run in bash with bash-completion's helpers); every option of every
`ucizip COMMAND --help` appears in the man page and is completed for that command; every
option that takes a value has a case in the completion, and each value it offers from a
fixed set is accepted by the program. README.md stays a newcomer's page: at most 220
lines, the two set-up commands first.

Adding a command or an option: give it a line in --help, a mention in doc/ucizip.1 (an
option under its command, or under the shared OPTIONS sections), and, if it takes a
value, a case in completions/ucizip's `case "$prev"`. This test names what is missing.

usage: test_docs.py UCIZIP"""
import os
import re
import subprocess
import sys
import tempfile

from harness import check, run, summary, use

UCIZIP = sys.argv[1]
use(UCIZIP)
SRC = os.environ["UZ_SRC_ROOT"]
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][-A-Za-z0-9]*")


def commands():
    """The command names of `ucizip --help` (its indented lines that start with a word)."""
    text = run("--help").stdout.decode()
    names = re.findall(r"^  ([a-z]+)\b", text.split("commands:", 1)[1], re.M)
    return sorted(set(names))


def options(command):
    """{option: takes a value} from `ucizip COMMAND --help`: the usage line and the option
    column (text before a gap of two spaces) of the indented lines that start with '-'."""
    text = run(command, "--help").stdout.decode()
    found = {}
    usage = text.splitlines()[0]
    for m in re.finditer(r"(--?[A-Za-z][-A-Za-z0-9]*)( [A-Z][A-Z0-9_,.\[\]|]*)?", usage):
        found[m.group(1)] = found.get(m.group(1), False) or bool(m.group(2))
    for line in text.splitlines()[1:]:
        m = re.match(r"^ {2,}(-\S.*?)(?: {2,}|$)", line)
        if not m:
            continue
        spec = m.group(1)
        for o in re.finditer(r"(--?[A-Za-z][-A-Za-z0-9]*)( [A-Z][A-Za-z0-9_,.\[\]|]*)?", spec):
            found[o.group(1)] = found.get(o.group(1), False) or bool(o.group(2))
    found.pop("-h", None)  # every command's help, as "--help"
    return found


def man_text():
    text = open(os.path.join(SRC, "doc", "ucizip.1")).read()
    return text.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")


def complete(*words):
    """What bash completes after `ucizip WORDS...` (the last word being completed), with
    bash-completion's helpers and our completion loaded, in an empty folder."""
    script = ('source %s; source %s; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
              'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _ucizip; printf "%%s\\n" "${COMPREPLY[@]}"'
              % (BASH_COMPLETION, os.path.join(SRC, "completions", "ucizip")))
    with tempfile.TemporaryDirectory() as empty:
        p = subprocess.run(["bash", "-c", script, "complete", os.path.abspath(UCIZIP), *words], capture_output=True, text=True,
                           cwd=empty)
    return set(p.stdout.split())


def prev_cases():
    """The options named in the completion's `case "$prev" in` patterns."""
    text = open(os.path.join(SRC, "completions", "ucizip")).read()
    block = text.split('case "$prev" in', 1)[1].split("esac", 1)[0]
    names = set()
    for m in re.finditer(r"^\s*([-|a-zA-Z0-9]+)\)", block, re.M):
        names.update(m.group(1).split("|"))
    return names


def value_accepted(option, value):
    """Whether the program takes option=value (a run that needs no engine)."""
    p = run("stats", "--no-engine", "--max-games", "1", option, value, os.path.join(SRC, "tests", "data", "sample.pgn"),
            ok=False)
    return p.returncode == 0


def check_readme():
    lines = open(os.path.join(SRC, "README.md"), encoding="utf-8").read().splitlines()
    check(len(lines) <= 220, "README.md has %d lines (at most 220: move details to doc/)" % len(lines))
    code = [l.strip() for l in lines[:20] if l.startswith("    ")]
    check(code[:2] == ["bash scripts/demo.sh", "bash scripts/test.sh"],
          "README.md starts with the two set-up commands, got %s" % code[:2])
    for name in re.findall(r"\bdoc/[\w.-]+\.(?:md|1)\b", "\n".join(lines)):
        check(os.path.exists(os.path.join(SRC, name)) or name in ("doc/engines.md",),
              "README.md names %s, which does not exist" % name)


def main():
    check_readme()
    have_completion = os.path.exists(BASH_COMPLETION)
    if not have_completion:
        print("bash-completion missing: completion not run (scripts/setup.sh installs it)")
    cmds = commands()
    check(len(cmds) >= 12, "commands found in --help: %s" % cmds)
    man = man_text()
    sections = set(re.findall(r"^\.SS (\S+)", man, re.M))
    man_words = set(OPTION.findall(man))
    cases = prev_cases()
    offered_cmds = complete("") if have_completion else set(cmds)
    for cmd in cmds:
        check(cmd in sections, "doc/ucizip.1 has no '.SS %s' section under COMMANDS" % cmd)
        check(cmd in offered_cmds, "the completion does not offer the command %s" % cmd)
        opts = options(cmd)
        check(len(opts) >= 1 or cmd == "verify", "%s --help lists options" % cmd)
        offered = complete(cmd, "-") if have_completion else set(opts)
        for opt, takes_value in sorted(opts.items()):
            check(opt in man_words, "doc/ucizip.1 does not mention %s (of %s --help)" % (opt, cmd))
            check(opt in offered, "the completion does not offer %s after '%s'" % (opt, cmd))
            if takes_value:
                check(opt in cases, "completions/ucizip has no case for the value of %s (of %s)" % (opt, cmd))
    # Values from a fixed set: each one offered is accepted, and the help names it.
    if have_completion:
        stats_help = run("stats", "--help").stdout.decode()
        for opt in ("--mode", "--coder", "--model", "--opening"):
            values = complete("stats", opt, "")
            check(values, "the completion offers values for %s" % opt)
            for v in sorted(values):
                check(value_accepted(opt, v), "the completion offers '%s %s', which the program refuses" % (opt, v))
                check(v in stats_help or re.match(r"^[0-9.,]+$", v), "'%s %s' is not in stats --help" % (opt, v))
        check("searchmoves" not in complete("stats", "--mode", ""), "searchmoves is not offered")
        files = complete("list", "--tag", "")
        check(files and all("=" in v or ">" in v for v in files), "--tag completes conditions, not files: %s" % files)
    # decompress restores the input byte for byte: no "export format" where it is described
    top = run("--help").stdout.decode()
    line = [l for l in top.splitlines() if l.strip().startswith("decompress")][0]
    check("byte for byte" in line and "export format" not in line, "--help's decompress line: %s" % line)
    man_decompress = man.split(".SS decompress", 1)[1].split(".SS", 1)[0]
    check("byte for byte" in man_decompress, "the man page's decompress section says byte for byte")


if __name__ == "__main__":
    main()
    sys.exit(summary())
