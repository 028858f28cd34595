#!/usr/bin/env python3
"""No two units of the source tree include each other (a unit: a .hpp and its .cpp), beyond the
pairs listed in KNOWN while they wait for their split (none now). A new pair fails the test; a
listed pair that has gone must leave the list (so that it cannot come back unseen)."""
import re
import sys
from pathlib import Path

KNOWN = set()
FOLDERS = ("model", "scenarios", "fit", "analytic", "sim", "output", "validation", "api", "server",
           "processes", "app", "python")


def mutual_pairs(root):
    includes = {}
    for folder in FOLDERS:
        for path in (root / folder).rglob("*.[ch]pp"):
            unit = str(path.relative_to(root).with_suffix(""))
            for included in re.findall(r'#include "([^"]+)\.hpp"', path.read_text()):
                if included != unit:
                    includes.setdefault(unit, set()).add(included)
    return {tuple(sorted((a, b))) for a, others in includes.items() for b in others
            if a in includes.get(b, ())}


def main():
    root = Path(sys.argv[1])
    found = mutual_pairs(root)
    new, gone = found - KNOWN, KNOWN - found
    for a, b in sorted(new):
        print(f"{a} and {b} include each other: move what both need into a unit of its own")
    for a, b in sorted(gone):
        print(f"{a} and {b} no longer include each other: take them off KNOWN in {Path(__file__).name}")
    print(f"{len(found)} pairs of units include each other, {len(KNOWN)} known")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
