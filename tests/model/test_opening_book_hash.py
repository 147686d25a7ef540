#!/usr/bin/env python3
"""The build's check of the opening book: scripts/opening_book_c.py compiles
data/opening_book/book-1.txt into C that the compiler accepts only when the file's FNV-1a
64 is the one book 1 froze (UZ_BOOK1_FNV in src/model/opening_book.h). The real file
compiles; the same file with one count changed, with a position left out, or cut short
does not, and the compiler says why; a malformed file is refused by the script itself."""
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ["UZ_SRC_ROOT"]
sys.path.insert(0, os.path.join(SRC, "tests", "cli"))
from harness import check, summary  # noqa: E402

BOOK = os.path.join(SRC, "data", "opening_book", "book-1.txt")
SCRIPT = os.path.join(SRC, "scripts", "opening_book_c.py")
CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
MESSAGE = "the opening book file is not the one this version froze"


def compile_book(text, tmp, name):
    """(script status, compiler status, compiler output) of a book file with text."""
    book, out = os.path.join(tmp, name + ".txt"), os.path.join(tmp, name + ".c")
    with open(book, "wb") as f:
        f.write(text)
    gen = subprocess.run([sys.executable, SCRIPT, book, out, "--version", "1", "--hash-macro", "UZ_BOOK1_FNV"],
                         capture_output=True, text=True)
    if gen.returncode != 0:
        return gen.returncode, None, gen.stderr
    cc = subprocess.run([CC, "-std=c17", "-c", "-o", os.path.join(tmp, name + ".o"), "-I", os.path.join(SRC, "src"),
                         "-I", os.path.join(SRC, "include"), out], capture_output=True, text=True)
    return 0, cc.returncode, cc.stderr


def main():
    if not CC:
        print("no C compiler")
        return 77
    text = open(BOOK, "rb").read()
    lines = text.split(b"\n")
    first_position = next(i for i, line in enumerate(lines) if line and not line.startswith((b"#", b"alpha16")))
    with tempfile.TemporaryDirectory() as tmp:
        gen, cc, err = compile_book(text, tmp, "real")
        check(gen == 0 and cc == 0, "the real book compiles: %s" % err[-300:])

        # one count one higher
        fields = lines[first_position].split(b" ")
        move, count = fields[1].split(b":")
        fields[1] = move + b":" + str(int(count) + 1).encode()
        changed = lines[:first_position] + [b" ".join(fields)] + lines[first_position + 1:]
        gen, cc, err = compile_book(b"\n".join(changed), tmp, "count")
        check(gen == 0 and cc != 0 and MESSAGE in err, "a changed count fails the build: %s" % err[-300:])

        # a position left out
        dropped = lines[:first_position] + lines[first_position + 1:]
        gen, cc, err = compile_book(b"\n".join(dropped), tmp, "dropped")
        check(gen == 0 and cc != 0 and MESSAGE in err, "a position left out fails the build")

        # a file cut short (its last line and a half gone)
        cut = text[:len(text) - len(lines[-2]) - 40]
        cut = cut[:cut.rfind(b"\n") + 1]
        gen, cc, err = compile_book(cut, tmp, "cut")
        check(gen == 0 and cc != 0 and MESSAGE in err, "a book cut short fails the build")

        # damaged: a move that is no move, keys out of order
        bad = lines[:first_position] + [lines[first_position].replace(b":", b"x:", 1)] + lines[first_position + 1:]
        gen, cc, err = compile_book(b"\n".join(bad), tmp, "bad")
        check(gen != 0 and "line %d" % (first_position + 1) in err, "a damaged line is refused: %s" % err.strip())
        swapped = lines[:first_position] + [lines[first_position + 1], lines[first_position]] + lines[first_position + 2:]
        gen, cc, err = compile_book(b"\n".join(swapped), tmp, "order")
        check(gen != 0 and "out of order" in err, "keys out of order are refused: %s" % err.strip())
    return summary()


if __name__ == "__main__":
    sys.exit(main())
