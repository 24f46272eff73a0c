"""Checks a tune overlay: every fact it sets (a `value:`) is followed by a source that says it
was measured, and prints how many. Exit 1 naming the first fact without one."""
import sys

lines = open(sys.argv[1]).read().splitlines()
facts = 0
for i, line in enumerate(lines):
    if line.strip().startswith("value:"):
        facts += 1
        following = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if not following.startswith('source: "measured by lockwright tune '):
            sys.exit(f"{sys.argv[1]}:{i + 1}: a fact without a measured source: {line.strip()}")
if not any(l.startswith("inherits: ") for l in lines):
    sys.exit(f"{sys.argv[1]}: no inherits:")
print(f"{facts} facts, each with a measured source")
