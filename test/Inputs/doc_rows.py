"""Print each measured table row the doc page lacks, then how many rows it has."""
import sys

measured, page = sys.argv[1], sys.argv[2]
with open(measured) as f:
    rows = [l.rstrip("\n") for l in f if l.startswith("| ") and not l.startswith("| arch ")]
with open(page) as f:
    text = f.read().splitlines()
missing = [r for r in rows if r not in text]
for r in missing:
    print("missing from " + page + ": " + r)
print(f"{len(rows) - len(missing)} of {len(rows)} rows on the page")
