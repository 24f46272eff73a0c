"""Runs `lockwright check` (layout-split-atomic) and `lockwright layout --format json` on the same
records and prints, per record, the members each says can straddle a line; exits 1 when they differ.

  compare_straddle.py LOCKWRIGHT SOURCE RECORD... -- COMPILER_FLAGS...
"""
import json
import re
import subprocess
import sys

args = sys.argv[1:]
split = args.index("--")
lockwright, source, records, flags = args[0], args[1], args[2:split], args[split + 1:]

check = subprocess.run([lockwright, "check", "--quiet", "--checks=-*,layout-split-atomic", source, "--"] + flags,
                       capture_output=True, text=True)
by_check = {r: set() for r in records}
# "'seq' (atomic, 8 bytes at offset 3 of struct pk) can straddle ..."; the path's first part is the member.
for m in re.finditer(r"warning: '([^']+)' \([^)]* of (?:struct|union|class) (\w+)\) can straddle", check.stdout):
    path, record = m.group(1), m.group(2)
    if record in by_check:
        by_check[record].add(re.split(r"[.\[]", path)[0])

status = 0
for record in records:
    out = subprocess.run([lockwright, "layout", source, "--record", record, "--format", "json", "--"] + flags,
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f"{record}: layout failed: {out.stderr.strip()}")
        status = 1
        continue
    by_layout = {f["name"] for f in json.loads(out.stdout)["fields"] if f["straddles_line"]}
    same = by_layout == by_check[record]
    status |= 0 if same else 1
    print(f"{record}: check {sorted(by_check[record])} layout {sorted(by_layout)} {'agree' if same else 'DISAGREE'}")
sys.exit(status)
