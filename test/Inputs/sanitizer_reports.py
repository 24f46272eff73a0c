"""Fails with every sanitizer report the sanitized test run left (test/CMakeLists.txt)."""
import os
import sys

report_dir = sys.argv[1]
reports = sorted(os.listdir(report_dir)) if os.path.isdir(report_dir) else []
for name in reports:
    print("==== %s" % name)
    with open(os.path.join(report_dir, name), errors="replace") as f:
        sys.stdout.write(f.read())
print("%d sanitizer report(s) in %s" % (len(reports), report_dir))
sys.exit(1 if reports else 0)
