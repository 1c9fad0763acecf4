#!/usr/bin/env python3
"""Generates CPython parity fixtures for the analysis numerics that issue 10 fixed.

Run from the repository root with CPython 3.11 (the reference's interpreter and libm):

    python3 scripts/gen-analysis-parity.py

Output is deterministic (fixed seeds) and goes to test/fixtures/analysis/:

* jacobi-reference.json -- the cyclic Jacobi procedure of the contract (scale, thresholds,
  pivot order, rotation with math.copysign(1, tau) and math.hypot, stable descending sort)
  run by CPython on symmetric matrices, many of them correlation matrices whose pivots meet
  equal diagonal entries (tau = -0.0 when the pivot is negative).
* int-tokens-reference.json -- what the reference computes from JSON int tokens, which
  Python keeps as exact integers: spectral first differences and identity returns
  (round15 of the exact value), spectral measurement coverage (set / min / max over exact
  values, echoed with their kind), and market measurement coverage (statistics.median,
  int - int and int / int exact then rounded once). Inputs are JSON texts, so the tests
  read them with the strict reader and see the same tokens the service would.
* log-reference.bin + log-reference.json -- math.log (glibc's log, which the reference's
  transforms use) on about 300 000 positive doubles: random bit patterns over the whole
  range, subnormals, prices (cents, 4 decimals, geometric paths), the neighbourhood of 1,
  powers of two and their neighbours, integers, and hard cases (logarithms within a tiny
  fraction of an ulp of a rounding boundary). The .bin holds (x, math.log(x)) pairs as
  little-endian float64; the .json the section sizes and every input where glibc's log is
  not the correctly rounded value (checked with 60-digit decimal arithmetic), with that
  value and the distance of the true logarithm from the midpoint, in ulps.
* exp-reference.bin + exp-reference.json -- the same for math.exp (effective_rank takes
  exp(-entropy)): arguments in [-ln 32, 0], across the whole range, near 0, with subnormal
  results, at the overflow and underflow thresholds, and the integers.
"""
import decimal
import json
import math
import os
import random
import statistics
import struct
import sys
from decimal import Decimal

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


# --- int tokens ----------------------------------------------------------------------------

def r15(x):
    return float("%.15g" % x)


def token(x):
    return json.dumps(x)


def random_size(rng):
    """A sample size token: ints around 2^53 and far beyond, floats sharing their doubles."""
    kind = rng.random()
    if kind < 0.30:
        return 10 ** 17 + rng.randint(-3, 3)
    if kind < 0.45:
        return 2 ** 53 + rng.randint(-2, 2)
    if kind < 0.55:
        return float(10 ** 17 + rng.randint(-40, 40))
    if kind < 0.65:
        e = rng.randint(53, 1000)
        return 2 ** e + rng.randint(0, 3)
    if kind < 0.75:
        return rng.randint(1, 10 ** 6)
    if kind < 0.85:
        return float(rng.randint(1, 10 ** 6)) + rng.choice([0.0, 0.5, 0.25])
    return rng.randint(1, 10 ** 30)


def random_level(rng):
    kind = rng.random()
    if kind < 0.35:
        return 10 ** 17 + rng.randint(-1000, 1000)
    if kind < 0.5:
        return -(10 ** 17) + rng.randint(-5, 5)
    if kind < 0.6:
        return float(10 ** 17 + rng.randint(-1000, 1000))
    if kind < 0.7:
        return 2 ** rng.randint(53, 1020) * rng.choice([1, -1]) + rng.randint(-9, 9)
    if kind < 0.8:
        return rng.choice([0, 0.0, -0.0, 1, -1])
    if kind < 0.9:
        return rng.uniform(-1e6, 1e6)
    return rng.randint(-(10 ** 40), 10 ** 40)


def int_token_cases():
    rng = random.Random(20261011)
    differences = []
    pairs = [(10 ** 17, 10 ** 17 + 1), (2 ** 53, 2 ** 53 + 1), (2 ** 53 + 1, 2 ** 53 + 3), (0, 0), (0, -0.0),
             (-0.0, 0), (1, 1.0), (10 ** 17, 1e17), (1e17, 10 ** 17 + 1), (-(10 ** 17), 10 ** 17),
             (-(2 ** 1023), 2 ** 1023), (2 ** 1023, -(2 ** 1023))]
    pairs += [(random_level(rng), random_level(rng)) for _ in range(1500)]
    # JSON has no -0 int literal in Python's json.dumps; the texts spell it explicitly.
    texts = [("0" if isinstance(a, int) and a == 0 else token(a), "0" if isinstance(b, int) and b == 0 else token(b)) for a, b in pairs]
    texts += [("-0", "0"), ("0", "-0"), ("-0", "-0"), ("-0", "0.0"), ("-0.0", "-0"), ("-0", "5"), ("100000000000000001", "-0")]
    for before, after in texts:
        b, a = json.loads(before), json.loads(after)
        try:
            diff = r15(a - b)
        except OverflowError:
            diff = None
        differences.append({"before": before, "after": after, "first_difference": diff, "identity_return": r15(a)})

    spectral = []
    lists = [[10 ** 17, 10 ** 17 + 1], [10 ** 17 + 1, 10 ** 17], [1e17, 10 ** 17], [10 ** 17, 1e17, 10 ** 17 + 1],
             [2 ** 53 + 1, 2 ** 53], [float(2 ** 53), 2 ** 53 + 1, 2 ** 53]]
    for _ in range(400):
        n = rng.randint(1, 8)
        base = random_size(rng)
        lst = [base if rng.random() < 0.4 else random_size(rng) for _ in range(n)]
        lists.append(lst)
    for lst in lists:
        status = "variable" if len(set(lst)) > 1 else "constant_declared_count"
        spectral.append({"sizes": "[" + ", ".join(token(x) for x in lst) + "]", "status": status,
                         "minimum": token(min(lst)), "maximum": token(max(lst))})

    market = []
    for i in range(400):
        b = rng.randint(10, 40)
        r = rng.randint(1, 8)
        base = random_size(rng)
        sizes = [base if rng.random() < 0.5 else random_size(rng) for _ in range(b + r)]
        if i % 4 == 0:
            # Baseline and recent sizes one apart: only exact arithmetic sees the change.
            big = 10 ** 17 + rng.randint(0, 9)
            sizes = [big] * b + [big + 1] * r
        drop = rng.choice([0, 0.0, 1e-18, 0.2, 1, 1e-17])
        before = statistics.median(sizes[:b])
        after = statistics.median(sizes[b:])
        try:
            rel = (after - before) / before
            status = "changed" if abs(rel) >= drop and rel != 0 else "stable"
            entry = {"status": status, "relative_change": r15(rel)}
        except OverflowError:
            entry = None
        market.append({"baseline": b, "recent": r, "drop": token(drop),
                       "sizes": "[" + ", ".join(token(x) for x in sizes) + "]", "coverage": entry})
    # int / int, correctly rounded by CPython: normal, subnormal, overflowing and tie cases.
    divisions = []
    quotients = [(1, 3), (2, 3), (10 ** 17 + 1 - 10 ** 17, 10 ** 17), (1, 2 ** 1074), (1, 2 ** 1075), (3, 2 ** 1076),
                 (2 ** 53 + 1, 2), (2 ** 54 + 2, 4), (2 ** 1024, 1), (2 ** 1024 - 2 ** 970, 1), (2 ** 1024 - 2 ** 971, 1),
                 (0, 5), (0, -5), (-7, 2), (7, -2), (10 ** 400, 10 ** 399 + 1)]
    for _ in range(600):
        a = rng.randint(-(10 ** rng.randint(1, 330)), 10 ** rng.randint(1, 330))
        d = rng.randint(1, 10 ** rng.randint(1, 330)) * rng.choice([1, -1])
        quotients.append((a, d))
    for _ in range(300):
        # Quotients on a rounding boundary: odd multiples of half a last place.
        m = rng.randint(2 ** 52, 2 ** 53 - 1) * 2 + 1
        e = rng.randint(-1100, 900)
        quotients.append((m * 2 ** e, 2) if e >= 0 else (m, 2 ** (1 - e)))
    for a, d in quotients:
        try:
            q = a / d
        except OverflowError:
            q = None
        divisions.append({"numerator": str(a), "denominator": str(d), "quotient": q})
    return {"differences": differences, "spectral_coverage": spectral, "market_coverage": market,
            "true_divide": divisions}


# --- natural logarithm ---------------------------------------------------------------------

# Inputs whose logarithm lies within about 2^-22 ulp of a midpoint between two doubles,
# found by scanning 3 * 10^8 price-like and random inputs with a double-double estimate
# (they are the ones the fast path hands to the exact evaluation); each is re-checked
# below with decimal arithmetic. The last is the binary64 worst case of ln for directed
# rounding (within 2^-40 ulp of a double): Lefèvre and Muller's table.
LOG_HARD_CASES = [
    "0x1.e99535f000000p-1",
    "0x1.305a6e147ae14p+17",
    "0x1.b5d591758e219p+15",
    "0x1.99a0aaa64c2f8p+15",
    "0x1.0ecbe1570a3d7p+23",
    "0x1.0755d1999999ap+22",
    "0x1.fd902f0200000p+2",
    "0x1.0ea1a6e18c000p+10",
    "0x1.1589bffd3e800p+12",
    "0x1.0654705c28f5cp+23",
    "0x1.030e6b4395810p+16",
    "0x1.fea8bab19c000p+10",
    "0x1.2835203d70a3dp+21",
    "0x1.f52d5c62f6000p+10",
    "0x1.0587f9db22d0ep+16",
    "0x1.6529d2d087661p-9",
    "0x1.62a88613629b6p+678",
]


def log_sections():
    rng = random.Random(20261012)
    sections = []

    def random_positive():
        while True:
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(63)))[0]
            if math.isfinite(x) and x > 0:
                return x

    sections.append(("random_bits", [random_positive() for _ in range(150_000)]))
    sub = [struct.unpack("<d", struct.pack("<Q", rng.randint(1, 2 ** 52 - 1)))[0] for _ in range(2_000)]
    sections.append(("subnormal", sub + [5e-324, 2.2250738585072014e-308, 2.225073858507201e-308]))
    prices = []
    for _ in range(40_000):
        prices.append(rng.randint(1, 10 ** 9) / 100)
        prices.append(rng.randint(1, 10 ** 9) / 10_000)
    for _ in range(200):
        p, g = rng.uniform(1, 5000), rng.uniform(-0.01, 0.01)
        for _ in range(50):
            p *= 1 + g
            prices.append(p)
    prices.append(2562.890625)
    sections.append(("prices", prices))
    near = [1.0]
    for j in range(1, 3001):
        near += [1 + j * 2.0 ** -52, 1 - j * 2.0 ** -53]
    for _ in range(10_000):
        near.append(1 + rng.uniform(-1, 1) * 2.0 ** -rng.uniform(8, 52))
    for b in (2.0 ** -8, -(2.0 ** -8)):
        x = 1 + b
        near += [x, math.nextafter(x, 0), math.nextafter(x, 2), math.nextafter(math.nextafter(x, 0), 0)]
    sections.append(("near_one", near))
    powers = []
    for k in range(-1074, 1024):
        x = 2.0 ** k
        powers += [x, math.nextafter(x, math.inf), math.nextafter(x, 0)]
    sections.append(("powers_of_two", [x for x in powers if x > 0 and math.isfinite(x)]))
    sections.append(("integers", [float(k) for k in range(1, 10_001)] + [float(2 ** 53 - 1), 1.7976931348623157e308]))
    sections.append(("hard", [float.fromhex(h) for h in LOG_HARD_CASES]))
    return sections


def log_fixture():
    ctx = decimal.Context(prec=60)
    pairs = bytearray()
    meta = {"sections": [], "glibc_not_correctly_rounded": [], "hard_cases": []}
    for name, xs in log_sections():
        meta["sections"].append({"name": name, "count": len(xs)})
        for x in xs:
            y = math.log(x)
            pairs += struct.pack("<dd", x, y)
            if x == 1.0:
                continue
            exact = ctx.ln(Decimal(x))
            correct = float(exact)
            if correct != y or name == "hard":
                # Distance of the true value from the nearest midpoint, in ulps of the result.
                u = Decimal(math.ulp(correct))
                mid = Decimal(correct) + (u / 2 if exact > Decimal(correct) else -u / 2)
                entry = {"x": x.hex(), "glibc": y, "correctly_rounded": correct,
                         "midpoint_distance_ulp": float(abs(exact - mid) / u)}
                if correct != y:
                    meta["glibc_not_correctly_rounded"].append(entry)
                if name == "hard":
                    meta["hard_cases"].append(entry)
    with open(os.path.join(OUT, "log-reference.bin"), "wb") as fh:
        fh.write(bytes(pairs))
    return meta


def exp_sections():
    rng = random.Random(20261013)
    sections = [
        ("entropy", [-rng.uniform(0, math.log(32)) for _ in range(60_000)]),
        ("whole_range", [rng.uniform(-745.2, 709.8) for _ in range(40_000)]),
        ("near_zero", [rng.uniform(-1, 1) * 2.0 ** -rng.uniform(0, 60) for _ in range(5_000)] + [0.0, -0.0, 5e-324]),
        ("subnormal_results", [rng.uniform(-745.2, -708.3) for _ in range(3_000)]),
    ]
    edges = []
    for x in (709.782712893384, -708.3964185322641, -745.1332191019411, -745.1332191019412):
        edges += [x, math.nextafter(x, math.inf), math.nextafter(x, -math.inf)]
    sections.append(("thresholds", edges))
    sections.append(("integers", [float(k) for k in range(-745, 710)]))
    return sections


def exp_fixture():
    ctx = decimal.Context(prec=60)
    pairs = bytearray()
    meta = {"sections": [], "glibc_not_correctly_rounded": []}
    for name, xs in exp_sections():
        meta["sections"].append({"name": name, "count": len(xs)})
        for x in xs:
            try:
                y = math.exp(x)
            except OverflowError:
                y = math.inf
            pairs += struct.pack("<dd", x, y)
            if x == 0:
                continue
            exact = ctx.exp(Decimal(x))
            correct = float(exact)
            if correct != y:
                u = Decimal(math.ulp(correct))
                mid = Decimal(correct) + (u / 2 if exact > Decimal(correct) else -u / 2)
                meta["glibc_not_correctly_rounded"].append({
                    "x": x.hex(), "glibc": y, "correctly_rounded": correct,
                    "midpoint_distance_ulp": float(abs(exact - mid) / u)})
    with open(os.path.join(OUT, "exp-reference.bin"), "wb") as fh:
        fh.write(bytes(pairs))
    return meta


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    dump("exp-reference.json", exp_fixture())
    dump("log-reference.json", log_fixture())
    dump("jacobi-reference.json", jacobi_cases())
    dump("int-tokens-reference.json", int_token_cases())
