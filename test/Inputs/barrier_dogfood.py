"""The checker guards the generator: the barrier checks run over lockwright's own generated
C and C++ headers for every architecture and report nothing; with the MCS ordering defects the
generated-locks review found put back, they report each.

usage: barrier_dogfood.py LOCKWRIGHT SPEC_DIR WORK_DIR
Prints one line per run; exits 1 when a run does not give what it should.
"""
import os
import re
import subprocess
import sys

HEADERS = ["lw_spinlock.h", "lw_counter.h", "lw_lockhash.h", "lw_cond_wait.h", "lw_barrier.h"]

# Each defect: the text of the correct code and the text that puts the defect back.
DEFECTS = {
    # The MCS tail exchange acquire only: the node's init stores are not ordered before the
    # exchange that publishes the node, so a successor's link can be overwritten.
    "mcs-lock-acquire-only-exchange": (
        "lw__xchg_acq_rel_ptr((volatile void *)&l->tail, (uintptr_t)node)",
        "lw__cmpxchg_acquire_ptr((volatile void *)&l->tail, 0, (uintptr_t)node)",
    ),
    # The MCS trylock without the write barrier before its acquire-only CAS.
    "mcs-trylock-no-write-barrier": (
        "\tlw_wmb();\n\treturn lw__cmpxchg_acquire_ptr",
        "\treturn lw__cmpxchg_acquire_ptr",
    ),
}


def check(lockwright, arch, include, source):
    # clang has no PA-RISC target: its headers are parsed with the host's, told they are on PA-RISC.
    extra = ["-D__hppa__"] if arch == "parisc" else []
    std = "-std=c++17" if source.endswith(".cpp") else "-std=gnu11"
    run = subprocess.run([lockwright, "check", "--quiet", "--arch", arch, "--checks=-*,barrier-*", source, "--",
                          std, "-I", include] + extra, capture_output=True, text=True)
    findings = re.findall(r"warning: .*\[(barrier-[a-z-]+)\]", run.stdout)
    return run.returncode, findings, run.stdout + run.stderr


def main():
    lockwright, spec_dir, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    source = os.path.join(work, "all.c")
    with open(source, "w") as f:
        f.write("".join('#include "%s"\n' % h for h in HEADERS))
    cxx_source = os.path.join(work, "all.cpp")
    with open(cxx_source, "w") as f:
        f.write('#include "lw_spinlock.hpp"\n')
    arches = sorted(n[:-5] for n in os.listdir(os.path.join(spec_dir, "arch")) if n.endswith(".yaml"))
    failures = 0
    for arch in arches:
        out = os.path.join(work, arch)
        subprocess.run([lockwright, "gen", "--arch", arch, "--quiet", "-o", out], check=True)
        rc, findings, text = check(lockwright, arch, out, source)
        rc_cxx, findings_cxx, text_cxx = check(lockwright, arch, out, cxx_source)
        print("%s: clean generated headers: %d findings" % (arch, len(findings) + len(findings_cxx)))
        if rc != 0 or findings or rc_cxx != 0 or findings_cxx:
            print(text + text_cxx)
            failures += 1
        with open(os.path.join(out, "lw_spinlock.h")) as f:
            pristine = f.read()
        for name, (good, bad) in DEFECTS.items():
            if good not in pristine:
                print("%s: %s: the generated code no longer has %r; update this test" % (arch, name, good))
                failures += 1
                continue
            broken = os.path.join(work, arch + "-" + name)
            os.makedirs(broken, exist_ok=True)
            for h in os.listdir(out):
                with open(os.path.join(out, h)) as f:
                    text = f.read()
                if h == "lw_spinlock.h":
                    text = text.replace(good, bad)
                with open(os.path.join(broken, h), "w") as f:
                    f.write(text)
            rc, findings, text = check(lockwright, arch, broken, source)
            print("%s: %s: %s" % (arch, name, " ".join(sorted(set(findings))) or "no finding"))
            if "barrier-missing-release" not in findings:
                print(text)
                failures += 1
    print("%d architectures, %d failures" % (len(arches), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
