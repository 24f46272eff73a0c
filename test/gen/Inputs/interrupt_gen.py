"""Interrupts `lockwright gen` at random moments and holds every run to all or nothing.

usage: interrupt_gen.py LOCKWRIGHT WORKDIR RUNS

Each run switches an output directory between two architectures' headers while a SIGINT or
SIGTERM arrives after a random delay. Afterwards the directory must hold exactly one of the two
complete sets (the old or the new, byte for byte, the .S of the other architecture gone) and no
temporary file. Prints one line per outcome kind and FAIL lines for violations.
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import time

lockwright, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])


def default_signals():
    # lit's shell may ignore SIGINT, and children inherit an ignored signal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def snapshot(directory):
    return {name: open(os.path.join(directory, name), "rb").read() for name in sorted(os.listdir(directory))}


def gen(arch, out):
    subprocess.run([lockwright, "gen", "--arch", arch, "-o", out, "--quiet"], check=True)


sets = {}
for arch in ("x86_64", "aarch64"):
    d = os.path.join(work, "ref-" + arch)
    gen(arch, d)
    sets[arch] = snapshot(d)

random.seed(15)
out = os.path.join(work, "out")
outcomes = {"old": 0, "new": 0}
failures = 0
for i in range(runs):
    old, new = ("x86_64", "aarch64") if i % 2 == 0 else ("aarch64", "x86_64")
    shutil.rmtree(out, ignore_errors=True)
    gen(old, out)
    proc = subprocess.Popen([lockwright, "gen", "--arch", new, "-o", out, "--quiet"], preexec_fn=default_signals)
    time.sleep(random.uniform(0, 0.03))
    proc.send_signal(random.choice([signal.SIGINT, signal.SIGTERM]))
    proc.wait()
    now = snapshot(out)
    temps = [n for n in now if ".tmp" in n]
    if temps:
        print("FAIL run %d: temporaries left: %s" % (i, temps))
        failures += 1
    if now == sets[old]:
        outcomes["old"] += 1
    elif now == sets[new]:
        outcomes["new"] += 1
    else:
        mixed = sorted(n for n in now if now[n] != sets[new].get(n) and now[n] != sets[old].get(n))
        print("FAIL run %d: neither set: %s" % (i, mixed or sorted(set(now) ^ set(sets[new]))))
        failures += 1
print("runs: %d, old set kept: %d, new set complete: %d, failures: %d" % (runs, outcomes["old"], outcomes["new"], failures))
sys.exit(1 if failures else 0)
