#!/usr/bin/env python3
"""The checker's cost against the compiler it is built on.

    checker.py --out DIR [--runs 5] [--lockwright BIN] NAME=BUILD_DIR ...

For each project (a directory with compile_commands.json), times on the same TUs:

  lockwright, one process   lockwright check -p BUILD_DIR (every check, every file)
  lockwright, per TU        lockwright check FILE -- ARGS, one process per compile command, in its
                            directory, as CMAKE_<LANG>_CLANG_TIDY runs it (default checks)
  ... per TU, every check   the same with --checks='*' (the opt-in barrier checks too)
  ... whole program         one map process per compile command (check --summaries DIR), then
                            lockwright report DIR: what a build system runs (lockwright_check)
  ... first / second run    lockwright check -p BUILD_DIR with --cache-dir: into an empty cache,
                            then again on the unchanged tree (every summary from the cache)
  clang -fsyntax-only       clang-19 with each entry's own arguments, one process per entry
  clang-tidy, one process   clang-tidy-19 -p BUILD_DIR --checks=-*,<one cheap check> FILES...
  clang-tidy, per TU        the same per compile command, as lockwright's per-TU modes

Every per-TU mode runs the same compile commands with one process each, so the ratios compare
the same work; every lockwright mode runs one TU at a time (-j 1) and, but for the cache's two,
parses every TU (--no-cache).

Wall time (sum over processes) and peak RSS (max over processes), median of --runs runs,
interleaved. Writes DIR/checker.csv, DIR/checker.md (tables, ratios to clang -fsyntax-only,
and lockwright's --enable-check-profile of one run) and DIR/checker.{png,svg}.
"""
import argparse
import csv
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

CHEAP_TIDY_CHECK = "misc-misplaced-const"


def timed(cmd, cwd=None):
    """Runs cmd; returns (wall seconds, CPU seconds (user + system), peak RSS in KiB, exit status,
    compiler errors it printed)."""
    with tempfile.TemporaryFile() as log:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=log)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        log.seek(0)
        errors = sum(1 for line in log.read().decode(errors="replace").splitlines() if ": error:" in line)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status), errors


def compile_args(entry):
    """An entry's compiler arguments without the compiler, -c and -o FILE (the source stays)."""
    args = entry.get("arguments")
    if args is None:
        args = shlex.split(entry["command"])
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-c",):
            continue
        if a == "-o":
            skip = True
            continue
        out.append(a)
    return out


def syntax_only(entry):
    """An entry's compiler command turned into clang-19 -fsyntax-only."""
    return ["clang-19", "-fsyntax-only"] + compile_args(entry)


def modes(lockwright, build, entries, files, scratch):
    # One process per compile command, in its directory, the command after '--'. Every lockwright
    # mode but the cache's parses each time (--no-cache) and runs one TU at a time (-j 1), as
    # clang does here.
    per_entry = lambda tool: [(tool + ["--quiet", e["file"], "--"] + compile_args(e), e["directory"])  # noqa: E731
                              for e in entries]
    summaries, cache = os.path.join(scratch, "summaries"), os.path.join(scratch, "cache")
    check = [lockwright, "check", "--no-cache", "-j", "1"]
    return {
        "lockwright, one process": [(check + ["-p", build, "--quiet"], None)],
        "lockwright, per TU": per_entry(check),
        # The opt-in pairing barrier checks too: what the ordering model costs.
        "lockwright, per TU, every check": per_entry(check + ["--checks=*"]),
        # Whole program as a build system runs it: one map action per TU, then the reduce.
        "lockwright, whole program (map per TU + report)":
            [(["rm", "-rf", summaries], None)] + per_entry(check + ["--summaries", summaries])
            + [([lockwright, "report", "--quiet", summaries], None)],
        # The summary cache: a first run into an empty cache, then a second on the unchanged tree.
        "lockwright, one process, first run (empty cache)":
            [(["rm", "-rf", cache], None),
             ([lockwright, "check", "-j", "1", "--cache-dir", cache, "-p", build, "--quiet"], None)],
        "lockwright, one process, second run (cache)":
            [([lockwright, "check", "-j", "1", "--cache-dir", cache, "-p", build, "--quiet"], None)],
        "clang -fsyntax-only, per TU": [(syntax_only(e), e["directory"]) for e in entries],
        "clang-tidy, one process": [(["clang-tidy-19", "-p", build, f"--checks=-*,{CHEAP_TIDY_CHECK}", "--quiet"]
                                     + files, None)],
        "clang-tidy, per TU": per_entry(["clang-tidy-19", f"--checks=-*,{CHEAP_TIDY_CHECK}"]),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--lockwright", default="lockwright")
    ap.add_argument("--modes", default="", help="';'-separated mode names to run (default: all)")
    ap.add_argument("projects", nargs="+", help="NAME=BUILD_DIR")
    opt = ap.parse_args()
    os.makedirs(opt.out, exist_ok=True)
    rows, profiles = [], {}
    for spec in opt.projects:
        name, build = spec.split("=", 1)
        build = os.path.abspath(build)
        with open(os.path.join(build, "compile_commands.json")) as f:
            entries = json.load(f)
        files = sorted({os.path.join(e["directory"], e["file"]) for e in entries})
        scratch = os.path.join(os.path.abspath(opt.out), "scratch-" + name)
        plan = modes(opt.lockwright, build, entries, files, scratch)
        if opt.modes:
            wanted = [m.strip() for m in opt.modes.split(";")]
            plan = {m: c for m, c in plan.items() if m in wanted}
        samples = {mode: [] for mode in plan}
        for run in range(opt.runs):
            for mode, commands in plan.items():  # interleaved: a slow minute hurts every mode alike
                wall, cpu, rss, failed, errors = 0.0, 0.0, 0, 0, 0
                for cmd, cwd in commands:
                    w, c, r, status, e = timed(cmd, cwd)
                    wall += w
                    cpu += c
                    rss = max(rss, r)
                    errors += e
                    failed += status not in (0, 1)  # 1: findings or compile errors, reported, not a crash
                samples[mode].append((wall, rss, failed, errors, cpu))
            print(f"{name}: run {run + 1}/{opt.runs} done", file=sys.stderr)
        base_runs = [x[0] for x in samples["clang -fsyntax-only, per TU"]]
        base_cpu_runs = [x[4] for x in samples["clang -fsyntax-only, per TU"]]
        base, base_cpu = statistics.median(base_runs), statistics.median(base_cpu_runs)
        for mode, s in samples.items():
            wall = statistics.median(x[0] for x in s)
            cpu = statistics.median(x[4] for x in s)
            rss = statistics.median(x[1] for x in s)
            # The spread: each run's ratio to the same run's clang pass (they ran back to back).
            per_run = [x[0] / b for x, b in zip(s, base_runs)]
            per_run_cpu = [x[4] / b for x, b in zip(s, base_cpu_runs)]
            rows.append({"project": name, "tus": len(files), "entries": len(entries), "mode": mode,
                         "runs": opt.runs, "wall_s": f"{wall:.3f}", "cpu_s": f"{cpu:.3f}",
                         "peak_rss_mib": f"{rss / 1024:.1f}",
                         "ratio_to_syntax_only": f"{wall / base:.3f}",
                         "ratio_min": f"{min(per_run):.3f}", "ratio_max": f"{max(per_run):.3f}",
                         "cpu_ratio": f"{cpu / base_cpu:.3f}",
                         "cpu_ratio_min": f"{min(per_run_cpu):.3f}", "cpu_ratio_max": f"{max(per_run_cpu):.3f}",
                         "compiler_errors": max(x[3] for x in s), "crashes": max(x[2] for x in s)})
        prof = subprocess.run([opt.lockwright, "check", "-p", build, "--quiet", "--enable-check-profile"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
        profiles[name] = prof[prof.find("===-"):] if "===-" in prof else prof

    with open(os.path.join(opt.out, "checker.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = ["## Checker cost (median of %d runs)" % opt.runs, "",
             "Compiler errors: `error:` lines the tool printed. The TUs compile with their own compiler; "
             "errors mean the tool parsed something other than what the build compiled.", "",
             "Wall time is what a build waits for; CPU time (user + system of each process) is what the "
             "machine spends, and moves less when another tenant takes the cores.", "",
             "| project | TUs | compile commands | mode | wall s | × clang -fsyntax-only (wall) | per-run range | "
             "CPU s | × clang (CPU) | per-run range | peak RSS MiB | compiler errors |",
             "|---|---:|---:|---|---:|---:|---|---:|---:|---|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['project']} | {r['tus']} | {r['entries']} | {r['mode']} | {r['wall_s']} | "
                     f"{r['ratio_to_syntax_only']} | {r['ratio_min']}–{r['ratio_max']} | {r['cpu_s']} | "
                     f"{r['cpu_ratio']} | {r['cpu_ratio_min']}–{r['cpu_ratio_max']} | {r['peak_rss_mib']} | "
                     f"{r['compiler_errors']} |")
    for name, prof in profiles.items():
        lines += ["", f"Where lockwright's time goes on {name} (`--enable-check-profile`, one process):", "",
                  "```", prof.strip(), "```"]
    with open(os.path.join(opt.out, "checker.md"), "w") as f:
        f.write("\n".join(lines) + "\n")

    print("\n".join(lines))
    try:
        import matplotlib
    except ImportError:
        print("checker.py: no matplotlib, no chart (the table above and checker.csv are complete)", file=sys.stderr)
    else:
        plot(rows, opt.out)
    if any(r["crashes"] for r in rows):
        raise SystemExit("checker.py: a tool crashed (exit status other than 0 or 1)")


def plot(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    projects = sorted({r["project"] for r in rows})
    modes_order = list(dict.fromkeys(r["mode"] for r in rows))
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.8 / len(modes_order)
    for i, mode in enumerate(modes_order):
        vals = [float(next(r["ratio_to_syntax_only"] for r in rows if r["project"] == p and r["mode"] == mode))
                for p in projects]
        ax.bar([x + i * width for x in range(len(projects))], vals, width, label=mode)
    ax.axhline(1.10, color="#d9534f", linestyle="--", linewidth=1, label="goal: 1.10")
    ax.set_xticks([x + width * (len(modes_order) - 1) / 2 for x in range(len(projects))])
    ax.set_xticklabels(projects)
    ax.set_ylabel("wall time / clang-19 -fsyntax-only")
    ax.legend(fontsize=7)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"checker.{ext}"), dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main()
