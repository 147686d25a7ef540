#!/usr/bin/env python3
"""Writes the C table of the engine profiles compiled into the library (the last place a
profile is looked up, after $UZ_ENGINES_DIR and the installed data directory): the text
of each engines/NAME.profile given on the command line, so that the default engine works
in a build tree and with no data directory, without compiling in any path."""
import os
import sys

out, files = sys.argv[1], sorted(sys.argv[2:])
with open(out, "w") as f:
    f.write("/* Generated from the profiles of engines/ by src/engine/embed_profiles.py. */\n")
    f.write('#include "engine_internal.h"\n\n')
    f.write("const uz__embedded_profile uz__embedded_profiles[] = {\n")
    for path in files:
        name = os.path.basename(path)[: -len(".profile")]
        text = open(path, encoding="utf-8").read()
        body = "".join("\\%03o" % b if b < 32 or b > 126 or b in (34, 92) else chr(b) for b in text.encode())
        f.write('    {"%s", "%s"},\n' % (name, body))
    f.write("};\n")
    f.write("const size_t uz__n_embedded_profiles = %d;\n" % len(files))
