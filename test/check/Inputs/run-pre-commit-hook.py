"""Runs each hook of a .pre-commit-hooks.yaml as pre-commit would (`entry args... files`), with
`lockwright` in the entry replaced by the binary under test and `-p build` by `--` (no compile
database here). Prints each hook's exit status and output.
Usage: run-pre-commit-hook.py HOOKS.yaml LOCKWRIGHT FILE..."""
import shlex
import subprocess
import sys

import yaml

hooks = yaml.safe_load(open(sys.argv[1]))
lockwright, files = sys.argv[2], sys.argv[3:]
for hook in hooks:
    for key in ("id", "name", "entry", "language"):
        assert key in hook, f"{hook.get('id')}: no {key}"
    assert hook["language"] == "system" and set(hook["types_or"]) == {"c", "c++"}, hook
    entry = shlex.split(hook["entry"])
    assert entry[0] == "lockwright", entry
    args = hook.get("args", [])
    assert args == ["-p", "build"], args
    command = [lockwright] + entry[1:] + ["--no-cache"] + files + ["--", "-std=c11"]
    run = subprocess.run(command, capture_output=True, text=True)
    print(f"{hook['id']}: rc={run.returncode}")
    print(run.stdout)
