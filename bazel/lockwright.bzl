"""lockwright check as Bazel actions: an aspect over cc_* targets.

The map step runs once per C/C++ source, as its own action: its inputs are the source, the
headers its target can include and the lockwright binary; its output is the source's summary
(`lockwright check --relative-paths --summaries`), which names files relative to the execution
root, so the remote cache and remote executors can share it between sandboxes, machines and
clones. The reduce step runs once per target: `lockwright report` over the summaries of the
target and of everything it depends on, judged as one program, to a text report and SARIF.

    bazel build //... --aspects=@lockwright//:lockwright.bzl%lockwright_aspect \\
        --output_groups=+lockwright

Output groups: `lockwright` (the report and the SARIF of each target), `lockwright_summaries`
(every summary a target's report reads). Settings: --@lockwright//:checks=GLOBS,
--@lockwright//:warnings_as_errors=GLOBS, --@lockwright//:fail_on_error (a report with an
error fails the build), --@lockwright//:tool=LABEL (another lockwright binary).
"""

LockwrightSettingInfo = provider(doc = "A lockwright build setting's value.", fields = ["value"])

LockwrightInfo = provider(
    doc = "What a target's report reads: the summaries of its sources and of its deps' sources, and those sources and headers (the report quotes them).",
    fields = {
        "summaries": "depset of summary files",
        "sources": "depset of source and header files",
    },
)

def _setting_impl(ctx):
    return [LockwrightSettingInfo(value = ctx.build_setting_value)]

lockwright_string_setting = rule(implementation = _setting_impl, build_setting = config.string(flag = True))
lockwright_bool_setting = rule(implementation = _setting_impl, build_setting = config.bool(flag = True))

def _binary_impl(ctx):
    executable = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = executable, target_file = ctx.file.binary, is_executable = True)
    return [DefaultInfo(executable = executable, files = depset([executable]))]

lockwright_binary = rule(
    implementation = _binary_impl,
    attrs = {"binary": attr.label(allow_single_file = True, mandatory = True)},
    executable = True,
    doc = "An installed lockwright binary as an executable target (the aspect's tool).",
)

_C_EXTENSIONS = ["c"]
_CXX_EXTENSIONS = ["cc", "cpp", "cxx", "c++", "C"]

def _summary_name(src):
    # The name `check --summaries` gives a source's summary: its path with separators as '_'.
    return src.path.replace("/", "_").replace(":", "_").lstrip("_") + ".lwsum.json"

def _sources(ctx):
    files = []
    for attr in getattr(ctx.rule.attr, "srcs", []):
        for f in attr.files.to_list():
            if f.extension in _C_EXTENSIONS + _CXX_EXTENSIONS:
                files.append(f)
    return files

def _compile_flags(ctx, compilation_context, src):
    """The flags the target compiles src with, as far as the checker needs them: its include
    paths and defines (its own and its deps', from CcInfo), --copt/--conlyopt/--cxxopt and the
    rule's copts. The toolchain's own flags are left out: they are the host compiler's (GCC's
    -fno-canonical-system-headers), which the checker's Clang may not accept."""
    cpp = ctx.fragments.cpp
    flags = []
    flags += ["-I" + d for d in compilation_context.includes.to_list()]
    flags += ["-iquote" + d for d in compilation_context.quote_includes.to_list()]
    flags += ["-isystem" + d for d in compilation_context.system_includes.to_list()]
    flags += ["-D" + d for d in compilation_context.defines.to_list()]
    flags += ["-D" + d for d in compilation_context.local_defines.to_list()]
    flags += cpp.copts
    flags += cpp.cxxopts if src.extension in _CXX_EXTENSIONS else cpp.conlyopts
    for copt in getattr(ctx.rule.attr, "copts", []):
        if "$(" not in copt:  # a Make variable expands to the toolchain's, unknown here
            flags.append(copt)
    return flags

def _check_options(ctx):
    options = []
    if ctx.attr._checks[LockwrightSettingInfo].value:
        options.append("--checks=" + ctx.attr._checks[LockwrightSettingInfo].value)
    if ctx.attr._warnings_as_errors[LockwrightSettingInfo].value:
        options.append("--warnings-as-errors=" + ctx.attr._warnings_as_errors[LockwrightSettingInfo].value)
    return options

def _lockwright_aspect_impl(target, ctx):
    deps = [d[LockwrightInfo] for d in getattr(ctx.rule.attr, "deps", []) if LockwrightInfo in d]
    dep_summaries = [d.summaries for d in deps]
    dep_sources = [d.sources for d in deps]
    srcs = _sources(ctx) if CcInfo in target else []
    if not srcs:
        # Nothing of its own to check: pass the deps' summaries on.
        return [LockwrightInfo(summaries = depset(transitive = dep_summaries), sources = depset(transitive = dep_sources))]

    compilation_context = target[CcInfo].compilation_context
    tool = ctx.executable._tool
    options = _check_options(ctx)
    summaries = []
    for src in srcs:
        summary = ctx.actions.declare_file("%s.lockwright/%s" % (ctx.label.name, _summary_name(src)))
        args = ctx.actions.args()
        args.add("check")
        args.add_all(["--relative-paths", "--no-cache", "--quiet", "--summaries=" + summary.dirname])
        args.add_all(options)
        args.add(src.path)
        args.add("--")
        args.add_all(_compile_flags(ctx, compilation_context, src))
        ctx.actions.run(
            executable = tool,
            arguments = [args],
            inputs = depset([src], transitive = [compilation_context.headers]),
            outputs = [summary],
            mnemonic = "LockwrightMap",
            progress_message = "lockwright: summarising %s" % src.short_path,
        )
        summaries.append(summary)

    all_summaries = depset(summaries, transitive = dep_summaries)
    sources = depset(srcs, transitive = [compilation_context.headers] + dep_sources)
    report = ctx.actions.declare_file("%s.lockwright.txt" % ctx.label.name)
    sarif = ctx.actions.declare_file("%s.lockwright.sarif" % ctx.label.name)
    fail_on_error = ctx.attr._fail_on_error[LockwrightSettingInfo].value
    args = ctx.actions.args()
    args.add_all([tool, report, sarif, "1" if fail_on_error else "0"])
    args.add_all(all_summaries)
    ctx.actions.run_shell(
        # The report is the action's output whatever it says; with fail_on_error, a report with
        # an error also fails the build, and shows it.
        command = """tool=$1 report=$2 sarif=$3 fail=$4; shift 4
"$tool" report --quiet --sarif="$sarif" "$@" > "$report"
status=$?
if [ "$status" -ne 0 ] && [ "$fail" = 1 ]; then cat "$report" >&2; exit "$status"; fi
exit 0""",
        arguments = [args],
        inputs = depset(transitive = [all_summaries, sources]),
        tools = [tool],
        outputs = [report, sarif],
        mnemonic = "LockwrightReport",
        progress_message = "lockwright: checking %s" % ctx.label,
    )
    return [
        LockwrightInfo(summaries = all_summaries, sources = sources),
        OutputGroupInfo(lockwright = depset([report, sarif]), lockwright_summaries = all_summaries),
    ]

lockwright_aspect = aspect(
    implementation = _lockwright_aspect_impl,
    attr_aspects = ["deps"],
    fragments = ["cpp"],
    attrs = {
        "_tool": attr.label(default = Label("//:tool"), executable = True, cfg = "exec"),
        "_checks": attr.label(default = Label("//:checks")),
        "_warnings_as_errors": attr.label(default = Label("//:warnings_as_errors")),
        "_fail_on_error": attr.label(default = Label("//:fail_on_error")),
    },
    doc = "Runs lockwright check over the C and C++ sources of cc_* targets and their deps.",
)
