#!/usr/bin/env python3
"""The checker's per-TU cost, paired by compile command.

    checker_paired.py [--reps 2] [--lockwright BIN] NAME=BUILD_DIR ...

checker.py times each mode over a whole project, one mode after another; on 2 shared cores the
machine drifts in the minutes between two modes, and the ratio of two modes moves by 10-30%
between repetitions. Here every compile command is run under each tool back to back
(clang-19 -fsyntax-only, lockwright with the default checks, lockwright with every check,
clang-tidy-19 with one cheap check), the order rotated from one command to the next, so drift
hits all four alike. CPU time (user + system) is summed per repetition; each repetition's
ratio to clang is printed, so the spread is there to read.

Start-up is measured apart (--startup-runs, default 30): each tool on an empty C file, paired
the same way; the median CPU time per process, and lockwright's difference to clang: the fixed
cost every per-file process pays before the TU's own work.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checker  # noqa: E402


def tools(lockwright):
    per_entry = lambda tool: lambda e: tool + ["--quiet", e["file"], "--"] + checker.compile_args(e)  # noqa: E731
    check = [lockwright, "check", "--no-cache", "-j", "1"]
    return {
        "clang -fsyntax-only": checker.syntax_only,
        "lockwright, default checks": per_entry(check),
        "lockwright, every check": per_entry(check + ["--checks=*"]),
        "clang-tidy, one cheap check": per_entry(["clang-tidy-19", f"--checks=-*,{checker.CHEAP_TIDY_CHECK}"]),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--lockwright", default="lockwright")
    ap.add_argument("--startup-runs", type=int, default=30)
    ap.add_argument("projects", nargs="*", help="NAME=BUILD_DIR")
    opt = ap.parse_args()
    modes = tools(opt.lockwright)
    names = list(modes)
    startup(modes, names, opt.startup_runs)
    print("| project | compile commands | tool | CPU s per repetition | × clang -fsyntax-only per repetition |")
    print("|---|---:|---|---|---|")
    for project in opt.projects:
        name, build = project.split("=", 1)
        with open(os.path.join(build, "compile_commands.json")) as f:
            entries = json.load(f)
        cpu = {m: [0.0] * opt.reps for m in names}
        errors = {m: 0 for m in names}
        for rep in range(opt.reps):
            for i, entry in enumerate(entries):
                shift = i % len(names)
                for mode in names[shift:] + names[:shift]:
                    _, seconds, _, _, errs = checker.timed(modes[mode](entry), cwd=entry["directory"])
                    cpu[mode][rep] += seconds
                    errors[mode] += errs
        base = cpu[names[0]]
        for mode in names:
            times = ", ".join(f"{t:.2f}" for t in cpu[mode])
            ratios = ", ".join(f"{t / b:.3f}" for t, b in zip(cpu[mode], base))
            note = f" ({errors[mode]} compiler errors)" if errors[mode] else ""
            print(f"| {name} | {len(entries)} | {mode}{note} | {times} | {ratios} |", flush=True)


def startup(modes, names, runs):
    """Each tool on an empty C file, paired and rotated as the projects' commands are."""
    with tempfile.TemporaryDirectory() as scratch:
        empty = os.path.join(scratch, "empty.c")
        open(empty, "w").close()
        entry = {"directory": scratch, "file": empty, "arguments": ["cc", "-c", empty]}
        cpu = {m: [] for m in names}
        for i in range(runs):
            shift = i % len(names)
            for mode in names[shift:] + names[:shift]:
                cpu[mode].append(checker.timed(modes[mode](entry), cwd=scratch)[1])
    base = statistics.median(cpu[names[0]])
    print(f"Start-up (an empty file, {runs} paired runs; median CPU ms per process, range):\n")
    print("| tool | CPU ms | range | over clang |")
    print("|---|---:|---|---:|")
    for mode in names:
        med = statistics.median(cpu[mode])
        print(f"| {mode} | {med * 1000:.1f} | {min(cpu[mode]) * 1000:.1f}-{max(cpu[mode]) * 1000:.1f} | "
              f"{(med - base) * 1000:+.1f} ms |")
    print(flush=True)


if __name__ == "__main__":
    main()
