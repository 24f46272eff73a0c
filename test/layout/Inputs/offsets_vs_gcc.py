"""Compares `lockwright layout --arch ARCH` with the architecture's own compiler: for every record
of the corpus, _Static_asserts of each member's offset (bit-fields excepted) and of the record's
size and alignment, compiled with that compiler. Prints one line per architecture.

  offsets_vs_gcc.py LOCKWRIGHT CORPUS RECORDS ARCH=CC [ARCH=CC ...]
      RECORDS: comma-separated struct/union tags; CC: the compiler command line (quoted)
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

lockwright, corpus, records = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
status = 0
for pair in sys.argv[4:]:
    arch, cc = pair.split("=", 1)
    asserts, members = [], 0
    for record in records:
        out = subprocess.run([lockwright, "layout", corpus, "--record", record, "--arch", arch, "--format", "json",
                              "--", "-std=gnu11"], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{arch}: layout {record} failed: {out.stderr.strip()}")
            status = 1
            break
        d = json.loads(out.stdout)
        if "those of the host" in d.get("note", ""):
            print(f"{arch}: layout fell back to the host: {d['note']}")
            status = 1
            break
        tag = d["record"]  # "struct scalars"
        asserts.append(f'_Static_assert(sizeof({tag}) == {d["size"]}, "{arch}: sizeof {tag} is not {d["size"]}");')
        asserts.append(f'_Static_assert(_Alignof({tag}) == {d["align"]}, "{arch}: alignof {tag} is not {d["align"]}");')
        for f in d["fields"]:
            if f.get("bit_width"):
                continue
            members += 1
            asserts.append(f'_Static_assert(offsetof({tag}, {f["name"]}) == {f["offset"]}, '
                           f'"{arch}: offsetof({tag}, {f["name"]}) is not {f["offset"]}");')
    else:
        with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as t:
            t.write(f'#include "{os.path.abspath(corpus)}"\n' + "\n".join(asserts) + "\n")
        comp = subprocess.run(shlex.split(cc) + ["-std=gnu11", "-fsyntax-only", t.name], capture_output=True, text=True)
        os.unlink(t.name)
        if comp.returncode != 0:
            status = 1
            errors = [l for l in comp.stderr.splitlines() if "error" in l]
            print(f"{arch}: {len(errors)} mismatches with its compiler")
            for l in errors:
                print("  " + l.split("error: ", 1)[-1])
        else:
            print(f"{arch}: {len(records)} records, {members} member offsets agree with its compiler")
sys.exit(status)
