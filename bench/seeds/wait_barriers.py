#!/usr/bin/env python3
"""Ordering instructions per wait iteration, for every architecture with a compiler here.

    wait_barriers.py --lockwright BIN --out DIR

Generates each architecture's headers, compiles wait_probe.c with that architecture's cross
gcc (clang-19 where Debian has none), disassembles it, and counts, inside the wait loop (the
range a backward branch closes) and outside it, the instructions the spec names as ordering:
its barriers' and acquire loads' instructions. Writes DIR/wait-barriers.csv and .md.
"""
import argparse
import csv
import os
import re
import subprocess
import tempfile

import yaml

FUNCTIONS = ["wait_acquire_each_poll", "wait_cond_load_acquire"]
# The wait checks' shapes (wait-plain-variable, wait-missing-relax): a plain poll, its READ_ONCE
# fix, and that with the relax hint.
POLLS = ["wait_plain", "wait_read_once", "wait_read_once_relax"]
BRANCH_TARGET = re.compile(r"\b([0-9a-f]+) <([.A-Za-z_][.A-Za-z0-9_]*)(\+0x[0-9a-f]+)?>")


def symbol(name):
    """ppc64's ELFv1 entry points are '.name'; local labels ('.L3', riscv) belong to the function around them."""
    return name[1:] if name.startswith(".") and not name.startswith(".L") else name


def spec(lockwright, arch):
    return yaml.safe_load(subprocess.run([lockwright, "spec", "show", arch], check=True, capture_output=True,
                                         text=True).stdout)


def ordering_mnemonics(s):
    """The first word of every barrier and acquire-load instruction the spec writes (branches and labels left out)."""
    found = set()
    barriers = s.get("barriers") or {}
    for kind in ("full", "read", "write", "acquire_load", "acquire_after_ctrl_dep"):
        entry = barriers.get(kind) or {}
        lines = list(entry.get("asm") or [])
        for v in (entry.get("insn") or {}).values():
            lines += v if isinstance(v, list) else [v]
        for line in lines:
            line = line.strip()
            if not line or line.endswith(":") or re.search(r"\b\d+[fb]\b", line):
                continue
            word = line.split()[0].rstrip(";")
            found.add(word)
    return found


def toolchain(s):
    tc = s.get("toolchain") or {}
    if tc.get("gcc"):
        return [tc["gcc"] + "-gcc"] + list(tc.get("cflags") or []), [tc["gcc"] + "-objdump"]
    if str(tc.get("native", "false")).lower() == "true":
        return ["cc"], ["objdump"]
    if tc.get("clang_target"):
        return ["clang-19", "--target=" + tc["clang_target"], "-ffreestanding"], ["llvm-objdump-19"]
    return None, None


def functions(disassembly):
    """{function: [(address, mnemonic, operands)]} from objdump -dr --no-show-raw-insn, with
    each branch to the function itself given as the absolute address its `<name+0xoff>` names
    (llvm-objdump prints loongarch's targets relative to the function)."""
    out, starts, current = {}, {}, None
    for line in disassembly.splitlines():
        head = re.match(r"^[0-9a-f]+ <([^>]+)>:", line)
        if head:
            if head.group(1).startswith(".L") and current:
                continue
            current = symbol(head.group(1))
            out[current] = []
            starts[current] = int(line.split()[0], 16)
            continue
        reloc = re.match(r"^\s+[0-9a-f]+:\s+R_\S+\s*(\S*)", line)
        if reloc:
            # The instruction before refers to another symbol (a call through the PLT, a
            # PC-relative load of a global): its printed target is a placeholder, not a branch.
            # (riscv relocates its branches too, to a local label or the function itself.)
            target = re.sub(r"[-+]0x[0-9a-f]+$", "", reloc.group(1))
            if current and out[current] and target and not target.startswith((".L", "*")) and symbol(target) != current:
                addr, mnem, _ = out[current][-1]
                out[current][-1] = (addr, mnem, "")
            continue
        insn = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if insn and current:
            # A load's comment names the address it reads ("# 94 <f>" on x86 and riscv): not a target.
            ops = re.sub(r"\s(#|//|!)\s+[0-9a-f]+ <[^>]+>.*$", "", insn.group(3))
            m = BRANCH_TARGET.search(ops)
            if m and symbol(m.group(2)) == current:
                target = starts[current] + int((m.group(3) or "+0x0")[1:], 16)
                ops = ops[:m.start()] + f"{target:x} <{m.group(2)}{m.group(3) or ''}>" + ops[m.end():]
            out[current].append((int(insn.group(1), 16), insn.group(2), ops))
    return out


def count(insns, mnemonics, name):
    """(ordering instructions inside loops, outside loops, loop ranges)."""
    loops = []
    for addr, mnem, ops in insns:
        m = BRANCH_TARGET.search(ops)
        target = symbol(m.group(2)) if m else None
        if m and (target == name or target.startswith(".L")) and int(m.group(1), 16) <= addr:
            loops.append((int(m.group(1), 16), addr))
    def ordering(mnem):
        # x86 spells "lock; addl" as a "lock" prefix; others are whole mnemonics (dmb, ldar, sync, fence...).
        # PA-RISC's ordered load, written "ldw,ma 0(...)", disassembles with the ",o" completer.
        if mnem.endswith(",o") and mnem[:-2] + ",ma" in mnemonics:
            return True
        return mnem in mnemonics
    inside = sum(1 for a, m, _ in insns if ordering(m) and any(lo <= a <= hi for lo, hi in loops))
    outside = sum(1 for a, m, _ in insns if ordering(m)) - inside
    return inside, outside, loops


def innermost_loop(insns, loops):
    """The mnemonics of the innermost loop's instructions, or None."""
    if not loops:
        return None
    lo, hi = min(loops, key=lambda r: r[1] - r[0])
    return [m for a, m, _ in insns if lo <= a <= hi]


def added(after, before):
    """The mnemonics `after` has beyond `before` (a multiset difference), as written."""
    left = list(before)
    out = []
    for m in after:
        if m in left:
            left.remove(m)
        else:
            out.append(m)
    return " ".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lockwright", required=True)
    ap.add_argument("--out", required=True)
    opt = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    archs = [l.split()[0] for l in subprocess.run([opt.lockwright, "spec", "list"], check=True, capture_output=True,
                                                  text=True).stdout.splitlines() if l.strip()]
    rows, polls = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for arch in archs:
            s = spec(opt.lockwright, arch)
            cc, objdump = toolchain(s)
            mnemonics = ordering_mnemonics(s)
            if not cc or not mnemonics:
                continue  # generic has no instructions of its own: the C11 builtins it uses are the host's
            inc = os.path.join(tmp, arch)
            subprocess.run([opt.lockwright, "gen", "--arch", arch, "--prefix", "lw", "--quiet", "-o", inc], check=True)
            obj = os.path.join(tmp, arch + ".o")
            built = subprocess.run(cc + ["-O2", "-c", "-I", inc, os.path.join(here, "wait_probe.c"), "-o", obj],
                                   capture_output=True, text=True)
            if built.returncode != 0:
                rows.append({"arch": arch, "function": "(compile failed)", "per_iteration": "", "outside_loop": "",
                             "ordering_mnemonics": built.stderr.strip().splitlines()[-1] if built.stderr else ""})
                continue
            dis = subprocess.run(objdump + ["-dr", "--no-show-raw-insn", obj], check=True, capture_output=True,
                                 text=True).stdout
            funcs = functions(dis)
            loops_of = {}
            for f in POLLS:
                insns = funcs.get(f, [])
                ordered, _, loops = count(insns, mnemonics, f)
                loops_of[f] = innermost_loop(insns, loops)
                polls.append({"arch": arch, "function": f,
                              "loop_instructions": len(loops_of[f]) if loops_of[f] is not None else "no loop found",
                              "ordering_per_iteration": ordered if loops else "",
                              "added_to_loop": added(loops_of[f] or [], loops_of[POLLS[POLLS.index(f) - 1]] or [])
                              if f != POLLS[0] else "",
                              "relax": "; ".join((s.get("cpu_relax") or {}).get("asm") or [])})
            for f in FUNCTIONS:
                inside, outside, loops = count(funcs.get(f, []), mnemonics, f)
                rows.append({"arch": arch, "function": f, "per_iteration": inside if loops else "no loop found",
                             "outside_loop": outside, "ordering_mnemonics": " ".join(sorted(mnemonics))})
    os.makedirs(opt.out, exist_ok=True)
    with open(os.path.join(opt.out, "wait-barriers.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    by_arch = {}
    for r in rows:
        by_arch.setdefault(r["arch"], {})[r["function"]] = r
    lines = ["## Waiting: ordering instructions per wait iteration (from each architecture's disassembly)", "",
             "Counted inside the wait loop (the range a backward branch closes) and once outside it; the "
             "ordering instructions are those the spec writes for its barriers and acquire loads.", "",
             "| arch | acquire on each poll: per iteration | after | cond_load_acquire: per iteration | after "
             "| counted as ordering |", "|---|---:|---:|---:|---:|---|"]
    for arch, fs in by_arch.items():
        a, c = fs.get(FUNCTIONS[0], {}), fs.get(FUNCTIONS[1], {})
        lines.append(f"| {arch} | {a.get('per_iteration', '')} | {a.get('outside_loop', '')} | "
                     f"{c.get('per_iteration', '')} | {c.get('outside_loop', '')} | "
                     f"{(a or c).get('ordering_mnemonics', '')} |")
    with open(os.path.join(opt.out, "wait-barriers.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    with open(os.path.join(opt.out, "wait-polls.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(polls[0]))
        w.writeheader()
        w.writerows(polls)
    by_arch = {}
    for r in polls:
        by_arch.setdefault(r["arch"], {})[r["function"]] = r
    lines = ["## Waiting: what the wait checks' fixes change in each architecture's poll loop", "",
             "The innermost loop of a poll on a plain flag, of the same poll through READ_ONCE "
             "(wait-plain-variable's fix) and of that with the relax hint (wait-missing-relax's fix): its "
             "instructions, the ordering instructions (as above) among them, and what each fix adds to it "
             "(a multiset difference of mnemonics, so a compiler's different loop layout shows too).", "",
             "| arch | loop instructions: plain / READ_ONCE / + relax | ordering per iteration | READ_ONCE adds "
             "| relax adds | relax (spec) |",
             "|---|---|---|---|---|---|"]
    for arch, fs in by_arch.items():
        p, r, x = (fs.get(f, {}) for f in POLLS)
        relax = x.get('relax', '')
        lines.append(f"| {arch} | {p.get('loop_instructions', '')} / {r.get('loop_instructions', '')} / "
                     f"{x.get('loop_instructions', '')} | {p.get('ordering_per_iteration', '')} / "
                     f"{r.get('ordering_per_iteration', '')} / {x.get('ordering_per_iteration', '')} | "
                     f"{r.get('added_to_loop', '') or '-'} | {x.get('added_to_loop', '') or '-'} | "
                     f"{'`' + relax + '`' if relax else 'none (a compiler barrier)'} |")
    with open(os.path.join(opt.out, "wait-polls.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
