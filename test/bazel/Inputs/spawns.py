"""Counts the spawns of one mnemonic in a Bazel execution log (--execution_log_json_file: JSON
objects one after another), and how many came from a cache, and lists their progress messages.

Usage: spawns.py LOG MNEMONIC"""
import json
import sys

text = open(sys.argv[1]).read()
decoder = json.JSONDecoder()
spawns, at = [], 0
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        break
    spawn, at = decoder.raw_decode(text, at)
    spawns.append(spawn)
mine = [s for s in spawns if s.get("mnemonic") == sys.argv[2]]
cached = [s for s in mine if s.get("remoteCacheHit")]
print(f"{len(mine)} {sys.argv[2]} spawns, {len(cached)} from the cache")
for s in sorted(mine, key=lambda s: s.get("progressMessage", "")):
    print(s.get("progressMessage", ""))
