#!/usr/bin/env python3
"""Tables with ratios and plots (PNG and SVG) from one bench/run-all output directory.

    plot.py OUT     reads OUT/locks.json and OUT/locktest.csv, writes OUT/summary.md and
                    OUT/locks-uncontended.{png,svg}, OUT/locks-contended.{png,svg},
                    OUT/locks-fairness.{png,svg}, from OUT/lockhash.csv OUT/lockhash.{png,svg}, and from
                    OUT/counters.csv OUT/counters.{png,svg}
    plot.py OUT --readme bench/README.md
                    also puts the tables between the README's tables markers
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FAMILY_COLOURS = {"lockwright": "#d9534f", "peer": "#5bc0de", "floor": "#777777"}


def load_benchmarks(path):
    """Medians and coefficients of variation from Google Benchmark's JSON.

    run-all asks for repetitions in random interleaved order and for the aggregates only:
    each figure is the median of the repetitions, its spread the CV (stddev / mean). A
    run without repetitions (one sample) has no CV."""
    with open(path) as f:
        data = json.load(f)
    uncontended, contended, cv, reps = {}, {}, {}, 1
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            raise SystemExit(f"plot.py: {b['name']}: {b.get('error_message')}")
        aggregate = b.get("aggregate_name")
        reps = max(reps, b.get("repetitions", 1))
        if aggregate not in (None, "median", "cv"):
            continue
        name = b.get("run_name", b["name"])
        kind = name.split("/")[1]
        if name.startswith("uncontended/"):
            key, value = (kind, 1), b["ns_per_op"]
            target = uncontended
        elif name.startswith("contended/"):
            key, value = (kind, b.get("threads", 1)), b["items_per_second"]
            target = contended.setdefault(kind, {})
        else:
            continue
        if aggregate == "cv":
            cv[(name.split("/")[0],) + key] = value
        elif name.startswith("uncontended/"):
            target[kind] = value
        else:
            target[key[1]] = value
    return uncontended, contended, cv, reps


def cv_text(cv, *key):
    """The spread of a figure as a percentage, or '' without repetitions."""
    return f"{100 * cv[key]:.0f}%" if key in cv else ""


# The classes for head to head: each lockwright lock against the peers of its algorithm.
CLASSES = [("test-and-set", "lw_tas", ["ck_fas", "ao_tas", "pthread_spin", "absl_spinlock"]),
           ("ticket", "lw_ticket", ["ck_ticket"]),
           ("MCS", "lw_mcs", ["ck_mcs"]),
           ("CLH", "lw_clh", ["ck_clh"]),
           ("rwlock (write side)", "lw_rwlock", ["ck_rwlock", "pthread_rwlock"]),
           # lw_spin is FIFO where the default is MCS (the queued spinlock): its class is the
           # queue locks; the unfair spinlocks and mutexes, which let a releasing thread take the
           # lock straight back, are listed beside them rather than hidden.
           ("queued spinlock (FIFO)", "lw_spin", ["ck_mcs", "ck_ticket"]),
           ("default spinlock vs unfair locks", "lw_spin", ["pthread_spin", "std_mutex", "absl_spinlock"])]


def verdict(ratio, spread):
    """Faster, slower, or a difference the run's own spread cannot separate."""
    if ratio >= 1:
        return "as fast or faster"
    return "within the spread" if 1 - ratio <= spread else "slower"


def load_csv(out, name):
    """The rows of OUT/NAME; none when that benchmark did not run."""
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def family_of(kind, rows):
    for r in rows:
        if r["kind"] == kind:
            return r["family"]
    return "lockwright" if kind.startswith("lw_") else ("floor" if kind.startswith("floor") else "peer")


def save(fig, out, stem):
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{stem}.{ext}"), dpi=110, bbox_inches="tight")
    plt.close(fig)


def quartiles(values):
    """Median, 25th and 75th percentiles (interpolated), as lockwright tune reports them."""
    v = sorted(values)

    def at(q):
        i = q * (len(v) - 1)
        lo = int(i)
        hi = min(lo + 1, len(v) - 1)
        return v[lo] + (v[hi] - v[lo]) * (i - lo)
    return at(0.5), at(0.25), at(0.75)


def plot_tune(path, out):
    """tune-distance.{png,svg}: ns per store of two writers d bytes apart (median, p25-p75),
    from a `lockwright tune --raw` recording; tune-locks.{png,svg}: the locks' throughput."""
    distance, locks, machine = {}, {}, {}
    with open(path) as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#"):
                continue
            if row[0] == "machine":
                machine[row[1]] = ",".join(row[2:])
            elif row[0] == "distance":
                distance.setdefault(int(row[1]), []).append(float(row[3]))
            elif row[0] == "lock":
                locks.setdefault((row[1], int(row[2])), []).append(float(row[4]))
    title = f"{machine.get('cpu_model', '?')}, {machine.get('online_cpus', '?')} CPUs"
    if distance:
        ds = sorted(distance)
        med, lo, hi = zip(*(quartiles(distance[d]) for d in ds))
        fig, ax = plt.subplots(figsize=(7, 3.6))
        ax.errorbar(ds, med, yerr=[[m - l for m, l in zip(med, lo)], [h - m for m, h in zip(med, hi)]],
                    marker="o", color=FAMILY_COLOURS["lockwright"], capsize=3)
        ax.axhspan(lo[-1], hi[-1], color="#cccccc", alpha=0.5, label=f"the {ds[-1]}-byte case (p25-p75)")
        ax.set_xscale("log", base=2)
        ax.set_xticks(ds)
        ax.set_xticklabels([str(d) for d in ds])
        ax.set_xlabel("bytes between the two writers' words")
        ax.set_ylabel("ns per store (median, p25-p75)")
        ax.set_ylim(bottom=0)
        ax.set_title(f"Destructive distance: {title}")
        ax.legend()
        save(fig, out, "tune-distance")
    if locks:
        names = sorted({n for n, _ in locks})
        threads = sorted({t for _, t in locks})
        fig, ax = plt.subplots(figsize=(7, 3.6))
        width = 0.8 / len(names)
        for i, name in enumerate(names):
            stats = [quartiles(locks[(name, t)]) if (name, t) in locks else (0, 0, 0) for t in threads]
            xs = [j + i * width for j in range(len(threads))]
            ax.bar(xs, [s[0] for s in stats], width, label=name,
                   yerr=[[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]], capsize=3)
        ax.set_xticks([j + width * (len(names) - 1) / 2 for j in range(len(threads))])
        ax.set_xticklabels([f"{t} thread{'s' if t > 1 else ''}" for t in threads])
        ax.set_yscale("log")
        ax.set_ylabel("million lock+unlock per second (all threads)")
        ax.set_title(f"Generated locks: {title}")
        ax.legend()
        save(fig, out, "tune-locks")


def main():
    out = sys.argv[1]
    uncontended, contended, cv, reps = load_benchmarks(os.path.join(out, "locks.json"))
    rows = load_csv(out, "locktest.csv")
    lines = ["# Lock benchmarks", ""]
    with open(os.path.join(out, "machine.txt")) as f:
        lines += ["```", f.read().strip(), "```", ""]

    # Uncontended: ns per lock+unlock, and the ratio to the floor and to the best lockwright lock.
    floor = uncontended.get("floor_xchg")
    best_lw = min((v for k, v in uncontended.items() if k.startswith("lw_")), default=None)
    lines += ["## Uncontended lock + unlock", "",
              f"Median of {reps} repetitions run in random interleaved order; CV = stddev / mean of them.", "",
              "| lock | ns/op | CV | × floor | × best lockwright |", "|---|---:|---:|---:|---:|"]
    for kind, ns in sorted(uncontended.items(), key=lambda kv: kv[1]):
        spread = cv_text(cv, "uncontended", kind, 1)
        lines.append(f"| {kind} | {ns:.2f} | {spread} | {ns / floor:.2f} | {ns / best_lw:.2f} |" if floor and best_lw
                     else f"| {kind} | {ns:.2f} | {spread} | | |")
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(uncontended) + 1))
    kinds = sorted(uncontended, key=uncontended.get)
    ax.barh(kinds, [uncontended[k] for k in kinds], color=[FAMILY_COLOURS[family_of(k, rows)] for k in kinds])
    ax.set_xlabel("ns per lock + unlock (uncontended, lower is better)")
    ax.invert_yaxis()
    save(fig, out, "locks-uncontended")

    # Contended: throughput per thread count, ratio to lockwright's ticket lock.
    threads = sorted({t for per in contended.values() for t in per})
    cores = next((int(l.split(":")[1]) for l in open(os.path.join(out, "machine.txt")) if l.startswith("cores:")), 0)
    thr = lambda t: f"{t} thr" + (" (oversubscribed)" if cores and t > cores else "")  # noqa: E731
    lines += ["", "## Contended throughput (million lock+unlock per second, all threads)", "",
              f"Median of {reps} interleaved repetitions, each with its CV beside it: on a small machine the "
              "FIFO locks' contended figures vary by tens of percent between repetitions.", "",
              "| lock | " + " | ".join(f"{thr(t)} | CV" for t in threads) + f" | × lw_ticket at {threads[-1]} |",
              "|---|" + "---:|---:|" * len(threads) + "---:|"]
    ref = contended.get("lw_ticket", {}).get(threads[-1])
    for kind in sorted(contended, key=lambda k: -contended[k].get(threads[-1], 0)):
        per = contended[kind]
        cells = " | ".join(f"{per[t] / 1e6:.1f} | {cv_text(cv, 'contended', kind, t)}" if t in per else " | "
                           for t in threads)
        ratio = f"{per.get(threads[-1], 0) / ref:.2f}" if ref else ""
        lines.append(f"| {kind} | {cells} | {ratio} |")
    fig, ax = plt.subplots(figsize=(8, 5))
    for kind in sorted(contended):
        per = contended[kind]
        ts = sorted(per)
        # lockwright's locks solid, peers dashed.
        ax.plot(ts, [per[t] / 1e6 for t in ts], marker="o", label=kind,
                linestyle="-" if family_of(kind, rows) == "lockwright" else "--")
    ax.set_xlabel("threads")
    ax.set_ylabel("million lock+unlock per second (higher is better)")
    ax.set_xscale("log", base=2)
    ax.legend(fontsize=7, ncol=2)
    save(fig, out, "locks-contended")

    # Head to head: each lockwright lock against the best peer of its class in this run. A ratio below 1
    # that the larger of the two CVs covers is reported as within the spread, not as slower.
    lines += ["", "## Head to head: each lockwright lock against the best peer of its algorithm", "",
              "| class | lockwright | best peer uncontended | ns/op lw / peer | verdict | "
              + " | ".join(f"best peer at {thr(t)} | throughput lw / peer | verdict" for t in threads) + " |",
              "|---|---|---|---:|---|" + "---|---:|---|" * len(threads)]
    for cls, lw, peers in CLASSES:
        present = [p for p in peers if p in uncontended]
        if lw not in uncontended or not present:
            continue
        best = min(present, key=lambda p: uncontended[p])
        ratio = uncontended[best] / uncontended[lw]  # > 1: lockwright takes less time
        spread = max(cv.get(("uncontended", lw, 1), 0), cv.get(("uncontended", best, 1), 0))
        cells = [cls, lw, best, f"{uncontended[lw] / uncontended[best]:.2f}", verdict(ratio, spread)]
        for t in threads:
            at = [p for p in present if t in contended.get(p, {})]
            if t not in contended.get(lw, {}) or not at:
                cells += ["", "", ""]
                continue
            top = max(at, key=lambda p: contended[p][t])
            ratio = contended[lw][t] / contended[top][t]
            spread = max(cv.get(("contended", lw, t), 0), cv.get(("contended", top, t), 0))
            cells += [top, f"{ratio:.2f}", verdict(ratio, spread)]
        lines.append("| " + " | ".join(cells) + " |")

    # Locktest: per-thread min/mean/max and fairness.
    rate_cv = lambda r: f"{100 * float(r['rate_cv']):.0f}%" if "rate_cv" in r else ""  # noqa: E731
    lt_reps = rows[0].get("repetitions", "1") if rows else "1"
    lines += ["", "## Locktest (fixed time; per-thread acquisitions)", "",
              f"The median of {lt_reps} rounds (cells in a new random order each round), with the rate's CV.", "",
              "| lock | threads | min | mean | max | total rate op/s | CV | fairness min/max | exact |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['kind']} | {r['threads']} | {r['min']} | {float(r['mean']):.0f} | {r['max']} | "
                     f"{float(r['rate_ops_per_s']):.0f} | {rate_cv(r)} | {float(r['fairness_min_over_max']):.3f} | "
                     f"{'yes' if r['exact'] == '1' else 'NO'} |")
    # Oversubscribed: more threads than CPUs, as user space often runs; the mutexes sleep, the
    # spinlocks must not spin on a preempted holder or successor.
    over = sorted((r for r in rows if cores and int(r["threads"]) > cores),
                  key=lambda r: -float(r["rate_ops_per_s"]))
    if over:
        mutex = next((float(r["rate_ops_per_s"]) for r in over if r["kind"] == "std_mutex"), None)
        lines += ["", f"## Oversubscribed: {over[0]['threads']} threads on {cores} CPUs (locktest)", "",
                  "| lock | total rate op/s | CV | × std_mutex | fairness min/max | exact |",
                  "|---|---:|---:|---:|---:|---|"]
        for r in over:
            rate = float(r["rate_ops_per_s"])
            ratio = f"{rate / mutex:.3f}" if mutex else ""
            lines.append(f"| {r['kind']} | {rate:.0f} | {rate_cv(r)} | {ratio} | "
                         f"{float(r['fairness_min_over_max']):.3f} | {'yes' if r['exact'] == '1' else 'NO'} |")
    top = max(int(r["threads"]) for r in rows)
    at_top = [r for r in rows if int(r["threads"]) == top]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(at_top) + 1))
    ax.barh([r["kind"] for r in at_top], [float(r["fairness_min_over_max"]) for r in at_top],
            color=[FAMILY_COLOURS[r["family"]] for r in at_top])
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"fairness at {top} threads: least / most acquisitions of one thread (1 is fair)")
    ax.invert_yaxis()
    save(fig, out, "locks-fairness")

    # The seed's hashed-lock experiment: throughput per table variant, ratio to the seed's table (4 slots, packed).
    hash_rows = load_csv(out, "lockhash.csv")
    if hash_rows:
        base = next((float(r["ops_per_s"]) for r in hash_rows if r["variant"] == "h4u_smp"), None)
        r0 = hash_rows[0]
        lines += ["", f"## Hashed lock table: {r0['counters']} counters one word apart, {r0['threads']} threads", "",
                  f"Median of {r0['runs']} interleaved runs, with the slowest and fastest.", "",
                  "| table | slots | slots padded | divisor | table bytes | op/s (median) | slowest .. fastest "
                  "| × 4 packed (smp) | exact |",
                  "|---|---:|---|---|---:|---:|---:|---:|---|"]
        for r in hash_rows:
            rate = float(r["ops_per_s"])
            lines.append(f"| {r['variant']} | {r['hash_size']} | {'yes' if r['padded'] == '1' else 'no'} | "
                         f"{r['divisor']} | {r['table_bytes']} | {rate:.0f} | "
                         f"{float(r['ops_per_s_slowest']):.0f} .. {float(r['ops_per_s_fastest']):.0f} | {rate / base:.2f} | "
                         f"{'yes' if r['exact'] == '1' else 'NO'} |")
        fig, ax = plt.subplots(figsize=(8, 0.35 * len(hash_rows) + 1))
        names = [f"{r['hash_size']} slots, {'padded' if r['padded'] == '1' else 'packed'}, /{r['divisor']}"
                 for r in hash_rows]
        ax.barh(names, [float(r["ops_per_s"]) / 1e6 for r in hash_rows],
                color=["#d9534f" if r["padded"] == "1" else "#5bc0de" for r in hash_rows])
        ax.set_xlabel(f"million increments per second, {r0['threads']} threads (higher is better)")
        ax.invert_yaxis()
        save(fig, out, "lockhash")

    # local_t-style counters: ns per operation, per variant, at each working set and thread count.
    counter_rows = load_csv(out, "counters.csv")
    if counter_rows:
        ops = ["inc", "add", "add_return", "read"]
        variants = ["atomic", "striped", "per_thread"]
        lines += ["", "## local_t-style counters (ns per operation of one thread, all threads at once)", "",
                  "Footprint: bytes of all K counters (striped: 64 destructive-window stripes each; per-thread: "
                  "one block per thread).", "",
                  "| K counters | threads | variant | footprint B | " + " | ".join(ops) + " |",
                  "|---:|---:|---|---:|" + "---:|" * len(ops)]
        keys = sorted({(int(r["counters"]), int(r["threads"])) for r in counter_rows})
        for k, t in keys:
            for v in variants:
                sel = {r["op"]: r for r in counter_rows
                       if int(r["counters"]) == k and int(r["threads"]) == t and r["variant"] == v}
                if not sel:
                    continue
                foot = next(iter(sel.values()))["footprint_bytes"]
                lines.append(f"| {k} | {t} | {v} | {foot} | "
                             + " | ".join(f"{float(sel[o]['ns_per_op']):.2f}" if o in sel else "" for o in ops) + " |")
        fig, axes = plt.subplots(1, len(keys), figsize=(4 * len(keys), 4), sharey=True, squeeze=False)
        for ax, (k, t) in zip(axes[0], keys):
            width = 0.27
            for i, v in enumerate(variants):
                vals = [next((float(r["ns_per_op"]) for r in counter_rows if int(r["counters"]) == k
                              and int(r["threads"]) == t and r["variant"] == v and r["op"] == o), 0) for o in ops]
                ax.bar([x + (i - 1) * width for x in range(len(ops))], vals, width, label=v)
            ax.set_xticks(range(len(ops)))
            ax.set_xticklabels(ops, fontsize=8)
            ax.set_yscale("log")
            ax.set_title(f"K={k}, {t} thread{'s' if t > 1 else ''}", fontsize=9)
        axes[0][0].set_ylabel("ns per operation (log, lower is better)")
        axes[0][0].legend(fontsize=8)
        save(fig, out, "counters")

    # spin_single / spin_multi: the inline locks against the .S routines, ratio asm / inline.
    spin_rows = load_csv(out, "spin.csv")
    if spin_rows:
        lines += ["", "## spin_single / spin_multi (million lock+unlock per second, all threads)", "",
                  "| mode | threads | inline_tas | asm_tas | asm / inline | inline_ticket | asm_ticket | asm / inline |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        keyed = {(r["mode"], r["threads"], r["variant"]): float(r["ops_per_s"]) for r in spin_rows}
        for mode, threads in dict.fromkeys((r["mode"], r["threads"]) for r in spin_rows):
            get = lambda v: keyed.get((mode, threads, v), 0)  # noqa: E731
            cells = []
            for algo in ("tas", "ticket"):
                inline, asm = get("inline_" + algo), get("asm_" + algo)
                cells += [f"{inline / 1e6:.1f}", f"{asm / 1e6:.1f}", f"{asm / inline:.2f}" if inline else ""]
            lines.append(f"| {mode} | {threads} | " + " | ".join(cells) + " |")

    # Waiting: host round trips, then the per-architecture instruction counts tabled by wait_barriers.py.
    wait_rows = load_csv(out, "wait.csv")
    if wait_rows:
        lines += ["", "## Waiting on the host (two threads handing a value back and forth)", "",
                  "| wait | ns per round trip (median) | runs |", "|---|---:|---:|"]
        for r in wait_rows:
            lines.append(f"| {r['wait']} | {float(r['ns_per_round_trip']):.1f} | {r['runs']} |")
    for name in ("wait-barriers.md", "wait-polls.md"):
        wait_md = os.path.join(out, name)
        if os.path.exists(wait_md):
            with open(wait_md) as f:
                lines += [""] + ["#" + l if l.startswith("## ") else l for l in f.read().strip().splitlines()]

    # lockwright tune: the destructive-distance curve and the tune verdicts against the spec.
    tune_csv = os.path.join(out, "tune.csv")
    if os.path.exists(tune_csv):
        plot_tune(tune_csv, out)
        tune_txt = os.path.join(out, "tune.txt")
        if os.path.exists(tune_txt):
            with open(tune_txt) as f:
                lines += ["", "## lockwright tune: this machine against the spec (see docs/tune.md)", "", "```"] + \
                    f.read().strip().splitlines() + ["```"]

    # The checker's cost, tabled by checker.py.
    checker_md = os.path.join(out, "checker.md")
    if os.path.exists(checker_md):
        with open(checker_md) as f:
            lines += [""] + f.read().strip().splitlines()

    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    # --readme FILE: replace what lies between the README's table markers with this run's tables.
    if len(sys.argv) > 3 and sys.argv[2] == "--readme":
        readme_path = sys.argv[3]
        with open(readme_path) as f:
            readme = f.read()
        begin, end = "<!-- tables:begin -->", "<!-- tables:end -->"
        if begin not in readme or end not in readme:
            raise SystemExit(f"plot.py: {readme_path} has no {begin} ... {end} markers")
        head, rest = readme.split(begin, 1)
        tail = rest.split(end, 1)[1]
        tables = "\n".join(lines[lines.index("```"):])
        tables = tables.replace("\n## ", "\n### ")
        with open(readme_path, "w") as f:
            f.write(head + begin + "\n" + tables + "\n" + end + tail)
    if any(r["exact"] != "1" for r in rows + hash_rows + counter_rows + wait_rows + spin_rows):
        raise SystemExit("plot.py: a lock lost updates (see the exact column)")


if __name__ == "__main__":
    main()
