"""Builds `numpy_reference.json`: numpy's float64 sum/mean of arrays of many lengths (pairwise
summation) and UltraEval's pass@k estimator `1 - np.prod(1 - k / np.arange(n - c + 1, n + 1))`.
Usage: python3 generate-numpy-reference.py  (writes the JSON next to this script)."""
import json
import os
import random

import numpy as np

rng = random.Random(7)
cases = []
for n in [1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 127, 128, 129, 200, 256, 257, 1000, 1001]:
    vals = [rng.random() * (10 ** rng.randint(-8, 3)) for _ in range(n)]
    cases.append({"values": vals, "mean": float(np.array(vals).mean()), "sum": float(np.array(vals).sum())})
passk = []
for n in [1, 2, 5, 10, 20, 50, 100, 150]:
    for c in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        for k in [1, 2, 10, 25, 50, 100]:
            if k > n:
                continue
            est = 1.0 if n - c < k else float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))
            passk.append({"n": n, "c": c, "k": k, "value": est})
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "numpy_reference.json"), "w") as f:
    json.dump({"numpy": np.__version__, "means": cases, "passk": passk}, f)
