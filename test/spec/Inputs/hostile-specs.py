"""Writes the hostile specs of test/spec/hostile.test into DIR: alias bombs of 7 and 10 levels of
9 aliases, a 50 MB spec, 100,000 nested brackets, block mappings 80 levels deep, binary junk."""
import os
import random
import sys

out = sys.argv[1]


def bomb(levels):
    lines = ["name: bomb", "inherits: generic", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    lines.append(f"cache: *a{levels - 1}")
    return "\n".join(lines) + "\n"


for levels in (7, 10):
    with open(os.path.join(out, f"bomb{levels}.yaml"), "w") as f:
        f.write(bomb(levels))
with open(os.path.join(out, "huge.yaml"), "w") as f:
    head = "name: huge\n"
    left = 50 * 1024 * 1024 - len(head)
    f.write(head)
    full, rest = divmod(left, 1024)
    f.write(("#" * 1023 + "\n") * full)
    if rest:
        f.write("#" * (rest - 1) + "\n")
assert os.path.getsize(os.path.join(out, "huge.yaml")) == 50 * 1024 * 1024
with open(os.path.join(out, "deep.yaml"), "w") as f:
    f.write("name: " + "[" * 100000 + "]" * 100000 + "\n")
with open(os.path.join(out, "nested.yaml"), "w") as f:
    f.write("".join("  " * i + f"k{i}:\n" for i in range(80)) + "  " * 80 + "v: 1\n")
random.seed(15)
with open(os.path.join(out, "junk.yaml"), "wb") as f:
    f.write(bytes(random.randrange(256) for _ in range(4096)))
# Terminal escape sequences (one retitles the window, one clears the screen) where a message
# quotes the spec's text.
with open(os.path.join(out, "escape.yaml"), "wb") as f:
    f.write(b"name: escape\ninherits: x86_64\nti\x1b]0;pwned\x07\x1b[2Jtle: 1\n")
