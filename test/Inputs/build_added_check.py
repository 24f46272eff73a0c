#!/usr/bin/env python3
"""Builds a lockwright binary with a check that scripts/add-check added to a copy of the
source tree, reusing the real build: the new check's .cpp and the copy's CheckRegistry.cpp
are compiled with the flags the build uses for an existing check (the copy's tool/check
first on the include path), and linked ahead of the build's own libraries, so the copy's
registry replaces the built one. A full rebuild of a copy would take most of a CI run.

    build_added_check.py BUILD_DIR SOURCE_ROOT COPY_ROOT NEW_CHECK_CPP OUTPUT
"""
import json
import os
import shlex
import subprocess
import sys


def main():
    build, source, copy, new_cpp, output = sys.argv[1:6]
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    model = next(e for e in entries if e["file"].endswith("tool/check/layout/SplitAtomicCheck.cpp"))
    args = shlex.split(model["command"])
    # Drop -o X and -c X; put the copy's tool/check before the source tree's.
    flags, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c"):
            skip = True
            continue
        if a == "-I" + os.path.join(source, "tool/check"):
            flags.append("-I" + os.path.join(copy, "tool/check"))
        flags.append(a)
    out_dir = os.path.dirname(os.path.abspath(output))
    objects = []
    for cpp in (new_cpp, os.path.join(copy, "tool/check/CheckRegistry.cpp")):
        obj = os.path.join(out_dir, os.path.basename(cpp) + ".o")
        subprocess.run(flags + ["-c", cpp, "-o", obj], cwd=model["directory"], check=True)
        objects.append(obj)
    link = subprocess.run(["ninja", "-C", build, "-t", "commands", "bin/lockwright"], check=True,
                          capture_output=True, text=True).stdout.strip().split("\n")[-1]
    link = link.removeprefix(": && ").removesuffix(" && :")
    words = shlex.split(link)
    at = words.index("-o")
    words[at:at + 2] = ["-o", os.path.abspath(output)] + objects
    subprocess.run(words, cwd=build, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
