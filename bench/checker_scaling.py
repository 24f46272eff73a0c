#!/usr/bin/env python3
"""Does the checker's cost grow linearly with the size of a translation unit, as clang's does?

    checker_scaling.py --out DIR [--sizes 1,2,4,8,16] [--runs 3] [--lockwright BIN] [--quick]

Generates one C source of each size (MB) from the same block repeated: a record with locks,
atomics and plain data (half of them padded, half false-sharing), functions that count, take
the lock, publish with a release store and poll with an acquire load, all through macros, as
lock code is written. Each size is then checked by every tool below, one process each, the
same command line after '--', interleaved, --runs times:

  lockwright check            default checks, --no-cache
  lockwright check, every check   --checks='*' (the ordering model and the wait checks too)
  clang-19 -fsyntax-only      the compiler lockwright is built on
  clang-tidy-19               one cheap check (misc-misplaced-const)

Writes DIR/scaling.csv and DIR/scaling.md: the median wall seconds with the min-max spread per
size, each tool's ratio to clang at that size, and its slope: the exponent b of time = a * size^b
fitted over the sizes (1.0 is linear; the issue's quadratic growth was 2).
"""
import argparse
import csv
import math
import os
import statistics
import subprocess
import sys
import time

BLOCK = """struct rec{i} {{ {pad}atomic_long hits; {pad}atomic_long misses; {pad}pthread_mutex_t lock; long data[4]; {pad}atomic_int flag; }};
static struct rec{i} g{i};
void hit{i}(void) {{ INC(g{i}.hits); }}
void miss{i}(long v) {{ INC(g{i}.misses); pthread_mutex_lock(&g{i}.lock); g{i}.data[0] += v; pthread_mutex_unlock(&g{i}.lock); }}
void publish{i}(long v) {{ g{i}.data[1] = v; STORE(g{i}.flag, 1); }}
long consume{i}(void) {{ while (!LOAD(g{i}.flag)) RELAX(); return g{i}.data[1]; }}
"""
HEADER = """#include <stdatomic.h>
#include <pthread.h>
#define INC(p) atomic_fetch_add_explicit(&(p), 1, memory_order_relaxed)
#define LOAD(p) atomic_load_explicit(&(p), memory_order_acquire)
#define STORE(p, v) atomic_store_explicit(&(p), (v), memory_order_release)
#define RELAX() __builtin_ia32_pause()
"""


def generate(path, megabytes):
    target = int(megabytes * 1024 * 1024)
    with open(path, "w") as f:
        f.write(HEADER)
        written, i = len(HEADER), 0
        while written < target:
            text = BLOCK.format(i=i, pad="_Alignas(64) " if i % 2 else "")
            f.write(text)
            written += len(text)
            i += 1
    return i


def timed(cmd):
    start = time.monotonic()
    status = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return time.monotonic() - start, status


def slope(sizes, times):
    """Least-squares exponent of time = a * size^b."""
    xs, ys = [math.log(s) for s in sizes], [math.log(t) for t in times]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--sizes", default="1,2,4,8,16")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lockwright", default="lockwright")
    ap.add_argument("--quick", action="store_true", help="sizes 0.05,0.1,0.2, one run (the test suite)")
    args = ap.parse_args()
    sizes = [0.05, 0.1, 0.2] if args.quick else [float(s) for s in args.sizes.split(",")]
    runs = 1 if args.quick else args.runs
    os.makedirs(args.out, exist_ok=True)
    flags = ["--", "-std=c11", "-w"]
    tools = {
        "lockwright check": lambda src: [args.lockwright, "check", "--no-cache", "--quiet", src] + flags,
        "lockwright check, every check": lambda src: [args.lockwright, "check", "--no-cache", "--quiet",
                                                      "--checks=*", src] + flags,
        "clang-19 -fsyntax-only": lambda src: ["clang-19", "-fsyntax-only", "-std=c11", "-w", src],
        "clang-tidy-19, one cheap check": lambda src: ["clang-tidy-19", "--quiet", "--checks=-*,misc-misplaced-const",
                                                       src] + flags,
    }
    sources = {}
    for mb in sizes:
        path = os.path.join(args.out, f"scaling-{mb:g}MB.c")
        blocks = generate(path, mb)
        sources[mb] = (path, blocks)
    times = {(t, mb): [] for t in tools for mb in sizes}
    for _ in range(runs):
        for mb in sizes:
            for tool, command in tools.items():  # interleaved: drift hits every tool alike
                wall, status = timed(command(sources[mb][0]))
                if status not in (0, 1):
                    sys.exit(f"{tool} on {mb} MB exited {status}")
                times[(tool, mb)].append(wall)
    rows = []
    for tool in tools:
        for mb in sizes:
            t = times[(tool, mb)]
            base = statistics.median(times[("clang-19 -fsyntax-only", mb)])
            rows.append({"tool": tool, "megabytes": f"{mb:g}", "blocks": sources[mb][1],
                         "wall_s": f"{statistics.median(t):.3f}", "min_s": f"{min(t):.3f}", "max_s": f"{max(t):.3f}",
                         "ratio_to_clang": f"{statistics.median(t) / base:.2f}"})
    with open(os.path.join(args.out, "scaling.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = [f"## Checker cost against TU size (median of {runs} run{'s' if runs > 1 else ''}, interleaved)", "",
             "| tool | " + " | ".join(f"{mb:g} MB" for mb in sizes) + " | slope (time ∝ size^b) |",
             "|---|" + "---:|" * (len(sizes) + 1)]
    for tool in tools:
        cells = []
        for mb in sizes:
            r = next(r for r in rows if r["tool"] == tool and r["megabytes"] == f"{mb:g}")
            cells.append(f"{r['wall_s']} s ({r['min_s']}–{r['max_s']}) {r['ratio_to_clang']}×")
        b = slope(sizes, [statistics.median(times[(tool, mb)]) for mb in sizes])
        lines.append(f"| {tool} | " + " | ".join(cells) + f" | {b:.2f} |")
    lines += ["", "Each cell: median wall seconds, the range over the runs, and the ratio to clang-19 "
              "-fsyntax-only on the same source."]
    with open(os.path.join(args.out, "scaling.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
