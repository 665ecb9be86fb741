"""Per-test counts for scripts/test.sh, one subcommand per kind of suite. Each appends lines
"kind<TAB>suite<TAB>passed<TAB>failed<TAB>skipped" and "skip<TAB>suite<TAB>reason" to a
counts file; `summary` reads it and prints the totals per kind and in all. A suite that could not report (a crash, a build or
collection error) counts as one failure; a suite whose tests all skipped counts as one failure
too, since it checked nothing.

  test_counts.py boost COUNTS BAZEL_OUTPUT TESTLOGS   Boost.Test binaries run by `bazel test`
  test_counts.py pytest COUNTS JUNIT_XML              pytest's --junitxml report
  test_counts.py lua COUNTS SUITE OUTPUT EXIT_STATUS  one run of tests/lua/run.lua
  test_counts.py tester COUNTS SUITE OUTPUT EXIT_STATUS  an upstream file run by torch.Tester
  test_counts.py script COUNTS SUITE EXIT_STATUS        an upstream script with no Tester: one test
  test_counts.py summary COUNTS                       prints skips, empty suites and totals
"""

import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict

BAZEL_LINE = re.compile(r"^(//[^ ]+) +(?:\(cached\) )?(PASSED|FAILED TO BUILD|FAILED|TIMEOUT|NO STATUS|FLAKY)")
BOOST_COUNT = re.compile(r"^\s+(\d+) test cases? out of \d+ (passed|failed|skipped|aborted)")
BOOST_SKIP = re.compile(r'(Test (?:case|suite) "[^"]+") is skipped because (.*)$')


def boost(counts, bazel_output, testlogs):
    targets = []
    with open(bazel_output, errors="replace") as f:
        for line in f:
            m = BAZEL_LINE.match(line)
            if m:
                targets.append(m.groups())
    with open(counts, "a") as out:
        for target, status in targets:
            n = defaultdict(int)
            reasons = []
            log = os.path.join(testlogs, target[2:].replace(":", "/"), "test.log")
            if os.path.exists(log) and status != "FAILED TO BUILD":
                with open(log, errors="replace") as f:
                    for line in f:
                        m = BOOST_COUNT.match(line)
                        if m:
                            n[m.group(2)] += int(m.group(1))
                        m = BOOST_SKIP.search(line)
                        if m:
                            reasons.append("%s: %s" % m.groups())
            failed = n["failed"] + n["aborted"]
            if status != "PASSED" and failed == 0:
                failed = 1  # the binary did not get to its report (crash, timeout, build error)
            out.write("C/C++ (Boost.Test)\t%s\t%d\t%d\t%d\n" % (target, n["passed"], failed, n["skipped"]))
            for r in reasons:
                out.write("skip\t%s\t%s\n" % (target, r))
        if not targets:
            out.write("C/C++ (Boost.Test)\tbazel test (no test ran)\t0\t1\t0\n")


def pytest(counts, junit):
    per_suite = defaultdict(lambda: [0, 0, 0])
    reasons = []
    if not os.path.exists(junit):
        with open(counts, "a") as out:
            out.write("Python (pytest)\tpytest (no report)\t0\t1\t0\n")
        return
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = case.get("classname") or case.get("name") or "?"
        parts = module.split(".")
        suite = next((p + ".py" for p in parts if p.startswith("test_")), module)
        kinds = {child.tag for child in case}
        if "failure" in kinds or "error" in kinds:
            per_suite[suite][1] += 1
        elif "skipped" in kinds:
            per_suite[suite][2] += 1
            reasons.append((suite, case.find("skipped").get("message", "")))
        else:
            per_suite[suite][0] += 1
    with open(counts, "a") as out:
        for suite, (p, f, s) in sorted(per_suite.items()):
            out.write("Python (pytest)\t%s\t%d\t%d\t%d\n" % (suite, p, f, s))
        for suite, reason in reasons:
            out.write("skip\t%s\t%s\n" % (suite, reason))
        if not per_suite:
            out.write("Python (pytest)\tpytest (no test collected)\t0\t1\t0\n")


def lua(counts, suite, output, exit_status):
    passed = failed = None
    with open(output, errors="replace") as f:
        for line in f:
            m = re.match(r"^lua: (\d+) passed, (\d+) failed", line)
            if m:
                passed, failed = int(m.group(1)), int(m.group(2))
    if passed is None:
        passed, failed = 0, 1  # the runner died before its count
    elif int(exit_status) != 0 and failed == 0:
        failed = 1
    with open(counts, "a") as out:
        out.write("Lua (th)\t%s\t%d\t%d\t0\n" % (suite, passed, failed))


def tester(counts, suite, output, exit_status):
    # torch.Tester's summary: "Completed N asserts in M tests with F failures and E errors",
    # F and E counting tests; a file that runs several Testers prints one each
    passed = failed = None
    with open(output, errors="replace") as f:
        for line in f:
            m = re.search(r"Completed \d+ asserts? in (\d+) tests? with (\d+) failures? and (\d+) errors?", line)
            if m:
                total, bad = int(m.group(1)), int(m.group(2)) + int(m.group(3))
                passed, failed = (passed or 0) + total - bad, (failed or 0) + bad
    if passed is None:
        passed, failed = 0, 1  # the run died before its count
    elif int(exit_status) != 0 and failed == 0:
        failed = 1
    with open(counts, "a") as out:
        out.write("Lua upstream (th)\t%s\t%d\t%d\t0\n" % (suite, passed, failed))


def script(counts, suite, exit_status):
    ok = int(exit_status) == 0
    with open(counts, "a") as out:
        out.write("Lua upstream (th)\t%s\t%d\t%d\t0\n" % (suite, int(ok), int(not ok)))


def summary(counts):
    per_kind = {}  # kind -> [suites, passed, failed, skipped], in order of appearance
    empty, skips = [], []
    with open(counts) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "skip":
                skips.append(fields[1:])
                continue
            kind, suite, p, fl, s = fields[0], fields[1], int(fields[2]), int(fields[3]), int(fields[4])
            if p == 0 and fl == 0:
                empty.append((suite, s))
                fl = 1
            totals = per_kind.setdefault(kind, [0, 0, 0, 0])
            for i, v in enumerate((1, p, fl, s)):
                totals[i] += v
    passed, failed, skipped = (sum(t[i] for t in per_kind.values()) for i in (1, 2, 3))
    for kind, (suites, p, fl, s) in per_kind.items():
        print("%-20s %5d passed, %d failed, %d skipped (%d suites)" % (kind + ":", p, fl, s, suites))
    for suite, reason in skips:
        print("skipped: %s: %s" % (suite, reason))
    for suite, s in empty:
        print("FAILED %s: no test passed (%d skipped): a suite that checks nothing does not pass" % (suite, s))
    print("skipped: %d tests" % skipped)
    print("tests: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    commands = {"boost": boost, "pytest": pytest, "lua": lua, "tester": tester, "script": script, "summary": summary}
    result = commands[command](*args)
    sys.exit(result or 0)
