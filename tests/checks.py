"""checks.py: the tally the Python tests share: check(ok, what) counts and prints a failure, finish()
prints 'N passed, M failed' (the closing line CI reads) and exits non-zero on any failure."""
import sys

_counts = {"checks": 0, "failures": 0}


def check(ok, what):
    _counts["checks"] += 1
    if not ok:
        _counts["failures"] += 1
        print("FAIL:", what)
    return ok


def finish():
    print("%d passed, %d failed" % (_counts["checks"] - _counts["failures"], _counts["failures"]))
    sys.exit(1 if _counts["failures"] else 0)
