#!/usr/bin/env python3
"""Writes a random edit script for `grail query GRAPH --script` on stdout.

usage: random-edits.py GRAPH.gra[.gz] EDITS SEED [QUESTIONS]

Half the edits insert an edge between two uniformly random vertices, half delete a uniformly
random edge of the graph as loaded (one deleted already is a no-op the report counts); then
QUESTIONS uniformly random `? u v` lines. Reads the `.gra` format only (vertex count line, then
`v: targets #`), which is what the benchmark data sets use.
"""
import gzip
import random
import sys


def read_gra(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = iter(f)
        for line in lines:
            if line.strip().isdigit():
                n = int(line)
                break
        edges = []
        for _, line in zip(range(n), lines):
            source, targets = line.split(":", 1)
            edges.extend((int(source), int(t)) for t in targets.replace("#", " ").split())
    return n, edges


def main():
    path, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    questions = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    n, edges = read_gra(path)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        if rng.random() < 0.5:
            out.append(f"+ {rng.randrange(n)} {rng.randrange(n)}")
        else:
            u, v = edges[rng.randrange(len(edges))]
            out.append(f"- {u} {v}")
    out.extend(f"? {rng.randrange(n)} {rng.randrange(n)}" for _ in range(questions))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
