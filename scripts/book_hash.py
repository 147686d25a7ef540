#!/usr/bin/python3
"""Prints a file's FNV-1a 64 as a C constant (the hash a data file is frozen by):
scripts/book_hash.py FILE."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fnv1a import fnv1a64  # noqa: E402

print("0x%016xULL" % fnv1a64(open(sys.argv[1], "rb").read()))
