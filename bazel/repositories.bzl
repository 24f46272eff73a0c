"""The lockwright binary as a Bazel repository, for the aspect's actions (lockwright.bzl).

In WORKSPACE:

    local_repository(name = "lockwright", path = "/usr/local/share/lockwright/bazel")
    load("@lockwright//:repositories.bzl", "lockwright_tool")
    lockwright_tool(name = "lockwright_tool")  # the `lockwright` on PATH, or path = "/opt/lw/bin/lockwright"
"""

def _lockwright_tool_impl(repository_ctx):
    path = repository_ctx.attr.path
    binary = repository_ctx.path(path) if path.startswith("/") else repository_ctx.which(path)
    if binary == None or not binary.exists:
        fail("lockwright_tool: no lockwright binary at '%s' (set path = the installed bin/lockwright)" % path)
    repository_ctx.symlink(binary, "bin/lockwright")
    repository_ctx.file("BUILD", """load("@lockwright//:lockwright.bzl", "lockwright_binary")

package(default_visibility = ["//visibility:public"])

lockwright_binary(name = "lockwright", binary = "bin/lockwright")
""")

lockwright_tool = repository_rule(
    implementation = _lockwright_tool_impl,
    attrs = {"path": attr.string(default = "lockwright", doc = "an absolute path, or a name looked up on PATH")},
    local = True,
    doc = "Links an installed lockwright binary in as @<name>//:lockwright.",
)
