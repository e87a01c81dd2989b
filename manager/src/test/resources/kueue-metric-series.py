#!/usr/bin/env python3
"""Lists every metric series of Kueue's pkg/metrics/metrics.go: name, type, labels.

    git -C kueue show v0.16.9:pkg/metrics/metrics.go | python3 kueue-metric-series.py > kueue-v0.16-metrics.txt

The output is what KueueSeriesCoverageTest holds docs/operations.md to.
"""
import re
import sys

source = sys.stdin.read()
pattern = re.compile(r'prometheus\.New(\w+)Vec\(\s*prometheus\.\w+Opts\{.*?Name:\s*"(\w+)".*?\}\s*,\s*\[\]string\{([^}]*)\}', re.S)
print("# The metric series of Kueue v0.16.9, pkg/metrics/metrics.go: name, type, labels.")
print("# Generated from Kueue's source by kueue-metric-series.py; do not edit by hand.")
for match in pattern.finditer(source):
    labels = ",".join(label.strip().strip('"') for label in match.group(3).split(","))
    print(f"kueue_{match.group(2)} {match.group(1).lower()} {labels}")
