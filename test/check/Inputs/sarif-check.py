"""Asserts a lockwright SARIF file field by field and validates it against a schema written
here from the SARIF 2.1.0 specification's required properties (OASIS sarif-v2.1.0, sections
3.13 sarifLog, 3.14 run, 3.18 toolComponent, 3.19 reportingDescriptor, 3.27 result, 3.28
location, 3.29 physicalLocation, 3.30 region, 3.4 artifactLocation, 3.55 fix, 3.56
artifactChange, 3.57 replacement). Prints one line per result for FileCheck.

Usage: sarif-check.py FILE.sarif ROOT [--expect-fix CHECK] [--expect-related CHECK] [--root-undeclared]

--root-undeclared: the document leaves SRCROOT to the consumer (no originalUriBaseIds)."""
import json
import os
import sys

import jsonschema

MESSAGE = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}}
REGION = {
    "type": "object",
    "required": ["startLine", "startColumn", "endLine", "endColumn"],
    "properties": {k: {"type": "integer", "minimum": 1} for k in ["startLine", "startColumn", "endLine", "endColumn"]},
}
ARTIFACT_LOCATION = {
    "type": "object",
    "required": ["uri"],
    "properties": {"uri": {"type": "string", "format": "uri-reference"}, "uriBaseId": {"type": "string"}},
}
PHYSICAL_LOCATION = {
    "type": "object",
    "required": ["artifactLocation"],
    "properties": {"artifactLocation": ARTIFACT_LOCATION, "region": REGION},
}
LOCATION = {"type": "object", "properties": {"id": {"type": "integer", "minimum": -1},
                                             "physicalLocation": PHYSICAL_LOCATION, "message": MESSAGE}}
REPLACEMENT = {"type": "object", "required": ["deletedRegion"],
               "properties": {"deletedRegion": REGION, "insertedContent": {"type": "object"}}}
FIX = {
    "type": "object",
    "required": ["artifactChanges"],
    "properties": {
        "description": MESSAGE,
        "artifactChanges": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["artifactLocation", "replacements"],
            "properties": {"artifactLocation": ARTIFACT_LOCATION,
                           "replacements": {"type": "array", "minItems": 1, "items": REPLACEMENT}}}},
    },
}
RESULT = {
    "type": "object",
    "required": ["message", "ruleId", "level", "locations", "partialFingerprints"],
    "properties": {
        "ruleId": {"type": "string"},
        "ruleIndex": {"type": "integer", "minimum": 0},
        "level": {"enum": ["none", "note", "warning", "error"]},
        "message": MESSAGE,
        "locations": {"type": "array", "minItems": 1, "items": LOCATION},
        "relatedLocations": {"type": "array", "items": LOCATION},
        "fixes": {"type": "array", "items": FIX},
        "partialFingerprints": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}
RULE = {
    "type": "object",
    "required": ["id", "shortDescription", "fullDescription"],
    "properties": {"id": {"type": "string"}, "shortDescription": MESSAGE, "fullDescription": MESSAGE,
                   "helpUri": {"type": "string", "format": "uri"}},
}
SCHEMA = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string"},
        "runs": {"type": "array", "minItems": 1, "maxItems": 1, "items": {
            "type": "object",
            "required": ["tool", "results"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object", "required": ["name", "rules"],
                    "properties": {"name": {"const": "lockwright"}, "rules": {"type": "array", "items": RULE}}}}},
                "results": {"type": "array", "items": RESULT},
                "originalUriBaseIds": {"type": "object", "additionalProperties": {
                    "type": "object", "required": ["uri"], "properties": {"uri": {"type": "string"}}}},
            },
        }},
    },
}

path, root = sys.argv[1], os.path.realpath(sys.argv[2])
expect_fix = sys.argv[sys.argv.index("--expect-fix") + 1] if "--expect-fix" in sys.argv else None
expect_related = sys.argv[sys.argv.index("--expect-related") + 1] if "--expect-related" in sys.argv else None
log = json.load(open(path))
jsonschema.validate(log, SCHEMA, format_checker=jsonschema.FormatChecker())
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
rule_ids = [r["id"] for r in rules]
if "--root-undeclared" in sys.argv:
    assert "originalUriBaseIds" not in run, run["originalUriBaseIds"]
else:
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file://" + root + "/", run["originalUriBaseIds"]
for r in rules:
    if r["id"].startswith(("layout-", "barrier-", "wait-")):
        assert r["helpUri"].startswith("file://") and os.path.exists(r["helpUri"][len("file://"):]), r
        assert r["fullDescription"]["text"] != r["shortDescription"]["text"], r
        assert r["help"]["markdown"].startswith("# " + r["id"]), r["id"]
assert run["invocations"][0]["executionSuccessful"] is True, run.get("invocations")
levels = {r["id"]: r["defaultConfiguration"]["level"] for r in rules}
assert levels["lockwright-nolint"] == "error" and levels["layout-false-sharing"] == "warning", levels
for r in rules:  # each describes its check, not a notice such as "**Opt-in**"
    assert not r["fullDescription"]["text"].startswith("**"), r["id"]
seen_fix = seen_related = False
for res in run["results"]:
    assert res["ruleId"] in rule_ids and rule_ids[res["ruleIndex"]] == res["ruleId"], res["ruleId"]
    loc = res["locations"][0]["physicalLocation"]
    art = loc["artifactLocation"]
    assert art["uriBaseId"] == "SRCROOT" and not art["uri"].startswith("/"), art
    assert os.path.exists(os.path.join(root, art["uri"])), art
    reg = loc["region"]
    assert (reg["endLine"], reg["endColumn"]) > (reg["startLine"], reg["startColumn"]), reg
    prints = res["partialFingerprints"]["lockwright/v1"]
    if res.get("relatedLocations"):
        ids = [r["id"] for r in res["relatedLocations"]]
        assert ids == list(range(1, len(ids) + 1)), ids
        seen_related |= res["ruleId"] == expect_related
    if res.get("fixes"):
        seen_fix |= res["ruleId"] == expect_fix
    print(f'{res["level"]} {res["ruleId"]} {art["uri"]}:{reg["startLine"]}:{reg["startColumn"]}-'
          f'{reg["endLine"]}:{reg["endColumn"]} fixes={len(res.get("fixes", []))} '
          f'related={len(res.get("relatedLocations", []))} print={prints} {res["message"]["text"]}')
assert expect_fix is None or seen_fix, f"no fix for {expect_fix}"
assert expect_related is None or seen_related, f"no related locations for {expect_related}"
print(f"valid SARIF 2.1.0: {len(run['results'])} results, {len(rules)} rules")
