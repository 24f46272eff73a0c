"""Checks that specs/api/lockwright.yaml and the generated headers agree.

Every name the API table lists must be defined by the generated headers
(as a macro, function or type, or in the C++ namespace), and every public
C name the headers define must be listed (a listed pattern, such as the internal per-size
helpers, must match at least one generated name), so the checker's view of lockwright's own names never
drifts from what `lockwright gen` emits.

usage: check_api_names.py API_YAML HEADER_DIR PREFIX
"""
import fnmatch
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
        if name.startswith(prefix + "_") and (name.endswith(".h") or name.endswith(".hpp")):
            with open(os.path.join(header_dir, name)) as f:
                text += f.read()

    listed = {n.replace("{prefix}", prefix).replace("{PREFIX}", prefix.upper()) for n in names}
    macros = set(re.findall(r"^#define (\w+)", text, re.M))
    functions = set(re.findall(r"^(?:static __inline__|%s__INLINE) [^(]*?\b(\w+)\(" % prefix.upper(), text, re.M))
    functions |= set(re.findall(r"^(?:void|int) (\w+)\(", text, re.M))  # extern prototypes
    types = set(re.findall(r"^typedef .*?\b(\w+);", text, re.M)) | set(re.findall(r"^} [^;]*?\b(\w+);", text, re.M))
    c_names = macros | functions | types
    public = {n for n in c_names
              if "__" not in n and not n.endswith("_H") and n.lower().startswith(prefix.lower() + "_")}
    namespace_names = set(re.findall(r"^(?:class|struct alignas\([^)]*\)) (\w+)", text, re.M))
    namespace_names |= set(re.findall(r"^using (\w+) =", text, re.M))
    for line in text.splitlines():
        # `inline void mb() ...`, `inline T load_acquire(...)`, `inline constexpr ... name = ...`
        m = (re.match(r"\s*inline constexpr .*\b(\w+) = ", line)
             or re.match(r"\s*inline\b.*?\b(\w+)\s*\(", line))
        if m:
            namespace_names.add(m.group(1))

    problems = []
    for name in sorted(listed):
        if "::" in name:
            if name.split("::", 1)[1] not in namespace_names:
                problems.append("listed but not generated: " + name)
        elif "*" in name:
            # A pattern (the internal per-size helpers): it must name something generated.
            if not any(fnmatch.fnmatchcase(n, name) for n in c_names):
                problems.append("listed but matches nothing generated: " + name)
        elif name not in c_names:
            problems.append("listed but not generated: " + name)
    for name in sorted(public - listed):
        problems.append("generated but not listed in %s: %s" % (os.path.basename(api_file), name))
    for p in problems:
        print(p)
    print("%d names listed, %d public C names generated, %d problems" % (len(listed), len(public), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
