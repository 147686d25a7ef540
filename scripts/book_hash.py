#!/usr/bin/python3
"""Prints a file's FNV-1a 64 as a C constant (the hash a data file is frozen by):
scripts/book_hash.py FILE."""
import sys

h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & ((1 << 64) - 1)
print("0x%016xULL" % h)
