"""Checks that specs/api/lockwright.yaml and the generated headers agree.

Every name the API table lists must be defined by the generated headers
(as a macro, or in the C++ namespace), and every public macro the headers
define must be listed, so the checker's view of lockwright's own names never
drifts from what `lockwright gen` emits.

usage: check_api_names.py API_YAML HEADER_DIR PREFIX
"""
import os
import re
import sys

import yaml


def main():
    api_file, header_dir, prefix = sys.argv[1:4]
    with open(api_file) as f:
        names = yaml.safe_load(f)["names"]
    text = ""
    for name in sorted(os.listdir(header_dir)):
        if name.startswith(prefix + "_") and name.endswith(".h"):
            with open(os.path.join(header_dir, name)) as f:
                text += f.read()

    listed = {n.replace("{prefix}", prefix).replace("{PREFIX}", prefix.upper()) for n in names}
    macros = set(re.findall(r"^#define (\w+)", text, re.M))
    public_macros = {m for m in macros if not m.endswith("_H") and "__" not in m}
    namespace_names = set()
    for line in text.splitlines():
        # `inline void mb() ...`, `inline T load_acquire(...)`, `inline constexpr ... name = ...`,
        # `struct alignas(N) cache_padded {`
        m = (re.match(r"\s*inline constexpr .*\b(\w+) = ", line)
             or re.match(r"\s*inline\b.*?\b(\w+)\s*\(", line)
             or re.match(r"struct alignas\([^)]*\) (\w+)", line))
        if m:
            namespace_names.add(m.group(1))
    problems = []
    for name in sorted(listed):
        if "::" in name:
            if name.split("::", 1)[1] not in namespace_names:
                problems.append("listed but not generated: " + name)
        elif name not in macros:
            problems.append("listed but not generated: " + name)
    for macro in sorted(public_macros - listed):
        problems.append("generated but not listed in %s: %s" % (os.path.basename(api_file), macro))
    for p in problems:
        print(p)
    print("%d names listed, %d public macros generated, %d problems" % (len(listed), len(public_macros), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
