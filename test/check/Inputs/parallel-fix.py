"""N concurrent `lockwright check --fix` runs over N sources sharing one header, ROUNDS times:
the header must end with exactly one alignment fix and still compile, whatever order the runs
took the file in. Usage: parallel-fix.py LOCKWRIGHT SRC_DIR N ROUNDS"""
import os
import shutil
import subprocess
import sys
import tempfile

lockwright, src, n, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for r in range(rounds):
    work = tempfile.mkdtemp(prefix="lw-parallel-fix-")
    shutil.copy(os.path.join(src, "stats.h"), work)
    sources = []
    for i in range(n):
        path = os.path.join(work, f"u{i}.c")
        with open(path, "w") as f:
            f.write('#include "stats.h"\n'
                    f"struct shared_stats s{i};\n"
                    f"void hit{i}(void) {{ atomic_fetch_add(&s{i}.hits, 1); }}\n"
                    f"void miss{i}(void) {{ atomic_fetch_add(&s{i}.misses, 1); }}\n")
        sources.append(path)
    runs = [subprocess.Popen([lockwright, "check", "--no-cache", "--quiet", "--checks=-*,layout-false-sharing",
                              "--fix", s, "--", "-std=c11"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            for s in sources]
    outcomes = [p.communicate()[1].decode() for p in runs]
    header = open(os.path.join(work, "stats.h")).read()
    count = header.count("_Alignas")
    if count != 1 or "_Alignas(64) atomic_long misses" not in header:
        sys.exit(f"round {r}: stats.h has {count} alignments:\n{header}\n" + "\n".join(outcomes))
    subprocess.run(["clang", "-fsyntax-only", "-std=c11", sources[0]], check=True)
    shutil.rmtree(work)
print(f"{rounds} rounds of {n} concurrent --fix runs: one alignment each time")
