#!/usr/bin/env python3
"""Generates CPython parity fixtures for the analysis numerics that issue 10 fixed.

Run from the repository root with CPython 3.11 (the reference's interpreter and libm):

    python3 scripts/gen-analysis-parity.py

Output is deterministic (fixed seeds) and goes to test/fixtures/analysis/:

* jacobi-reference.json -- the cyclic Jacobi procedure of the contract (scale, thresholds,
  pivot order, rotation with math.copysign(1, tau) and math.hypot, stable descending sort)
  run by CPython on symmetric matrices, many of them correlation matrices whose pivots meet
  equal diagonal entries (tau = -0.0 when the pivot is negative).
"""
import json
import math
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "test", "fixtures", "analysis")

if sys.version_info[:2] != (3, 11):
    sys.exit("run this with CPython 3.11, the reference's interpreter")


def dump(name, value):
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        json.dump(value, fh, separators=(",", ":"), allow_nan=False)
        fh.write("\n")
    print(f"wrote {path}", file=sys.stderr)


# --- Jacobi --------------------------------------------------------------------------------

def jacobi(matrix):
    """The contract's procedure, step by step (reference implementation from its prose)."""
    n = len(matrix)
    scale = max(abs(x) for row in matrix for x in row) or 1.0
    a = [[x / scale for x in row] for row in matrix]
    v = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    for _ in range(50):
        off = max((abs(a[i][j]) for i in range(n) for j in range(i)), default=0.0)
        if off <= 1e-14:
            break
        for p in range(n - 1):
            for q in range(p + 1, n):
                apq = a[p][q]
                if abs(apq) <= 1e-14:
                    continue
                tau = (a[q][q] - a[p][p]) / (2.0 * apq)
                t = math.copysign(1.0, tau) / (abs(tau) + math.hypot(1.0, tau))
                c = 1.0 / math.sqrt(1.0 + t * t)
                s = t * c
                app, aqq = a[p][p], a[q][q]
                a[p][p] = app - t * apq
                a[q][q] = aqq + t * apq
                a[p][q] = a[q][p] = 0.0
                for k in range(n):
                    if k != p and k != q:
                        akp, akq = a[k][p], a[k][q]
                        a[k][p] = a[p][k] = c * akp - s * akq
                        a[k][q] = a[q][k] = s * akp + c * akq
                for k in range(n):
                    vkp, vkq = v[k][p], v[k][q]
                    v[k][p] = c * vkp - s * vkq
                    v[k][q] = s * vkp + c * vkq
    else:
        raise ValueError("symmetric eigensolver did not converge")
    order = sorted(range(n), key=lambda i: a[i][i], reverse=True)
    return [a[i][i] * scale for i in order], [[v[k][i] for k in range(n)] for i in order]


def correlation(columns):
    def normalise(col):
        m = max(abs(x) for x in col)
        scaled = [x / m for x in col]
        mean = math.fsum(scaled) / len(scaled)
        centred = [x - mean for x in scaled]
        norm = math.sqrt(math.fsum(x * x for x in centred))
        return [x / norm for x in centred]
    z = [normalise(c) for c in columns]
    return [[math.fsum(a * b for a, b in zip(zi, zj)) for zj in z] for zi in z]


def jacobi_cases():
    rng = random.Random(20261010)
    cases = []
    # 2 x 2 with equal diagonals: the first pivot has tau = -0.0 when the entry is negative.
    for r in (-0.9, -0.5, -1e-3, -1e-12, 0.5, 0.9, -0.3333333333333333):
        cases.append([[1.0, r], [r, 1.0]])
    for _ in range(120):
        # Correlation matrices of panels whose first two members move against each other.
        n = rng.randint(2, 8)
        t = rng.randint(n + 2, 40)
        base = [rng.gauss(0, 1) for _ in range(t)]
        cols = [[b + rng.gauss(0, 0.7) for b in base], [-b + rng.gauss(0, 0.7) for b in base]]
        for _ in range(n - 2):
            w = rng.uniform(-1, 1)
            cols.append([w * b + rng.gauss(0, 1) for b in base])
        rng.shuffle(cols[2:])
        cases.append(correlation(cols))
    for _ in range(60):
        # Unit diagonals with random (often negative) off-diagonal entries.
        n = rng.randint(2, 10)
        m = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
        for i in range(n):
            for j in range(i):
                m[i][j] = m[j][i] = rng.choice([-1, -1, 1]) * rng.choice([rng.random(), 0.5, 0.25, 1e-9])
        cases.append(m)
    for _ in range(60):
        # Repeated diagonal values, so later pivots meet equal diagonals too.
        n = rng.randint(2, 9)
        d = [rng.choice([2.0, -1.0, 0.5]) for _ in range(n)]
        m = [[d[i] if i == j else 0.0 for j in range(n)] for i in range(n)]
        for i in range(n):
            for j in range(i):
                m[i][j] = m[j][i] = rng.uniform(-1, 1)
        cases.append(m)
    for _ in range(60):
        n = rng.randint(1, 12)
        m = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1):
                m[i][j] = m[j][i] = rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3)
        cases.append(m)
    out = []
    for m in cases:
        values, vectors = jacobi(m)
        out.append({"matrix": m, "values": values, "vectors": vectors})
    return out


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    dump("jacobi-reference.json", jacobi_cases())
