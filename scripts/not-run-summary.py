#!/usr/bin/env python3
"""The checks of a scripts/test run that could not run on this machine, grouped by oracle.

    scripts/not-run-summary.py KEYS_OUT LOG REPORT.xml...

Reads the surefire reports (a failure, error or skip whose message holds "ORACLE NOT RUN: ") and
LOG (lines "oracle: why. To run it: how." from scripts/test-editors and scripts/test-sweep-sample),
writes the keys ("module: class > test") of the tests that did not run to KEYS_OUT, so that
scripts/test lists them apart from real failures, and prints one block per oracle: what was
missing, and once how to get it. Prints nothing when everything ran.
"""
import collections
import sys
import xml.etree.ElementTree as ET

MARK = "ORACLE NOT RUN: "


def split(message):
    """'oracle: why. To run it: how. (...)' -> (oracle, why, how)."""
    message = message.split("\n")[0].strip()
    head, _, how = message.partition(". To run it: ")
    how = how.split(" (Counted as a failure")[0].rstrip(".")
    oracle, _, why = head.partition(": ")
    return oracle, why, how


def main(keys_out, log, reports):
    found = collections.OrderedDict()  # oracle -> (whys, hows, tests)
    keys = []
    for path in reports:
        module = path.split("/")[1]
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        for case in root.iter("testcase"):
            for child in case:
                text = (child.get("message") or "") + "\n" + (child.text or "")
                if child.tag in ("failure", "error", "skipped") and MARK in text:
                    oracle, why, how = split(text[text.index(MARK) + len(MARK):])
                    entry = found.setdefault(oracle, ([], [], [0]))
                    if why not in entry[0]:
                        entry[0].append(why)
                    if how and how not in entry[1]:
                        entry[1].append(how)
                    entry[2][0] += 1
                    keys.append(module + ": " + case.get("classname", "") + " > " + case.get("name", ""))
                    break
    for line in open(log, encoding="utf-8"):
        if line.strip():
            oracle, why, how = split(line)
            entry = found.setdefault(oracle, ([], [], [0]))
            if why not in entry[0]:
                entry[0].append(why)
            if how and how not in entry[1]:
                entry[1].append(how)
    with open(keys_out, "w", encoding="utf-8") as f:
        f.write("".join(k + "\n" for k in keys))
    if not found:
        return 0
    print()
    print("oracles NOT RUN on this machine (counted as not run, never as passed; README.md, \"What the tests need\"):")
    for oracle, (whys, hows, tests) in found.items():
        print("  %s%s" % (oracle, " (%d test%s)" % (tests[0], "" if tests[0] == 1 else "s") if tests[0] else ""))
        for why in whys:
            print("      missing: " + why)
        for how in hows:
            print("      to run it: " + how)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
