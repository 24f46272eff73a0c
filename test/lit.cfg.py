# lit configuration for lockwright's tool tests (spec/, gen/, cross/).
#
# Per-architecture substitutions come from the specs themselves (the
# `toolchain:` section of `lockwright spec show ARCH`), so adding an
# architecture is adding a spec file, not editing this file.
import os
import platform
import shutil
import subprocess

import lit.formats
import yaml

config.name = "lockwright"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".yaml", ".c", ".cpp"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "unit"]
config.test_source_root = os.path.dirname(__file__)

build_dir = lit_config.params.get("build_dir")
if not build_dir:
    lit_config.fatal("pass --param build_dir=<cmake build dir> (ctest does this)")
config.test_exec_root = os.path.join(build_dir, "test")

llvm_tools_dir = lit_config.params.get("llvm_tools_dir", "/usr/lib/llvm-19/bin")
source_dir = os.path.dirname(config.test_source_root)
lockwright = os.path.join(build_dir, "bin", "lockwright")

config.environment["PATH"] = os.pathsep.join([llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# The tool must find the source tree's specs and templates, not an installed copy.
config.environment["LOCKWRIGHT_SPEC_DIR"] = os.path.join(source_dir, "specs")
config.environment["LOCKWRIGHT_TEMPLATE_DIR"] = os.path.join(source_dir, "arch-templates")

config.available_features.add("host-" + platform.machine())
# Debian's bazel-bootstrap (scripts/bootstrap installs it): the Bazel aspect's test.
if shutil.which("bazel"):
    config.available_features.add("bazel")
config.substitutions.append(("%lockwright", lockwright))
config.substitutions.append(("%builddir", build_dir))
config.substitutions.append(("%srcroot", source_dir))
config.substitutions.append(("%specdir", os.path.join(source_dir, "specs")))
config.substitutions.append(("%templatedir", os.path.join(source_dir, "arch-templates")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%python", lit_config.params.get("python", "python3")))
# lit itself, for a test that runs a generated lit test (test/check/add-check.test).
config.substitutions.append(("%lit", os.path.join(os.path.dirname(os.path.dirname(lit.__file__)), "lit.py")))
config.substitutions.append(("%llvm_tools_dir", llvm_tools_dir))
# Headless Chromium renders the layout pictures (scripts/bootstrap installs it).
chromium = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
config.substitutions.append(("%screenshot", "sh " + os.path.join(config.test_source_root, "layout", "Inputs", "screenshot.sh") + " " + chromium))
# A cap on the tool's memory for the hostile-input tests: an address-space limit, except under
# ASan, which reserves terabytes of shadow address space and enforces a resident limit instead.
sanitize = lit_config.params.get("sanitize", "")
if sanitize:
    config.available_features.add("sanitized")
    config.substitutions.append(("%memlimit", 'export ASAN_OPTIONS="$ASAN_OPTIONS:hard_rss_limit_mb=3000"'))
else:
    config.substitutions.append(("%memlimit", "ulimit -v 1000000"))
# The flags every generated header must pass cleanly.
config.substitutions.append(("%cwarn", "-O2 -Wall -Wextra -Werror"))


def resolved_spec(arch):
    out = subprocess.run([lockwright, "spec", "show", arch], env=dict(os.environ, **config.environment),
                         capture_output=True, text=True)
    if out.returncode != 0:
        lit_config.fatal("lockwright spec show %s failed:\n%s" % (arch, out.stderr))
    return yaml.safe_load(out.stdout)


def arch_names():
    out = subprocess.run([lockwright, "spec", "list"], env=dict(os.environ, **config.environment),
                         capture_output=True, text=True)
    if out.returncode != 0:
        lit_config.fatal("lockwright spec list failed:\n%s" % out.stderr)
    return [line.split()[0] for line in out.stdout.splitlines() if line.strip()]


if not os.path.exists(lockwright):
    lit_config.fatal("%s is not built" % lockwright)

clang = os.path.join(llvm_tools_dir, "clang")
llvm_objdump = os.path.join(llvm_tools_dir, "llvm-objdump")
arch_subst = []
for arch in arch_names():
    tc = resolved_spec(arch).get("toolchain") or {}
    gcc = tc.get("gcc")
    native = str(tc.get("native", "false")).lower() == "true"
    cflags = " ".join(tc.get("cflags") or [])
    if native and not gcc:
        cc, cxx, objdump = "cc", "c++", "objdump -d --no-show-raw-insn"
    elif gcc:
        cc, cxx = gcc + "-gcc", gcc + "-g++"
        objdump = gcc + "-objdump -d --no-show-raw-insn"
    elif tc.get("clang_target"):
        # No cross gcc (and no libc) in Debian for this target: compile freestanding with clang.
        target = "--target=" + tc["clang_target"] + " -ffreestanding"
        cc, cxx = clang + " " + target, clang + " " + target
        objdump = llvm_objdump + " -d --no-show-raw-insn"
    else:
        continue
    # %link-ARCH: flags for a static, threaded test executable. Without a libc
    # the stress test brings its own runtime (raw clone() threads, _start).
    if gcc or native:
        link = "-static -pthread"
    else:
        link = "-nostdlib -static -fuse-ld=lld -DSTRESS_FREESTANDING"
    if native:
        run = ""
    elif tc.get("qemu"):
        run = tc["qemu"] + (" -L " + tc["sysroot"] if tc.get("sysroot") else "")
    else:
        run = None
    arch_subst.append(("%cc-" + arch, (cc + " " + cflags).strip()))
    arch_subst.append(("%cxx-" + arch, (cxx + " " + cflags).strip()))
    arch_subst.append(("%objdump-" + arch, objdump))
    arch_subst.append(("%link-" + arch, link))
    if run is not None:
        arch_subst.append(("%run-" + arch, run))
# Longest names first: %cc-ppc64 must not eat the front of %cc-ppc64le.
arch_subst.sort(key=lambda s: -len(s[0]))
config.substitutions[:0] = arch_subst
