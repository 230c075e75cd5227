"""Times sacrebleu (and, when importable, rouge-score) on the data written by
`node bench/metrics/text/run.mjs --write-data DIR`, for the comparison in RESULTS.md.
Not part of the test suite; needs a Python with sacrebleu installed.
Usage: python bench/metrics/text/compare_python.py DIR [--repeats R]
If rouge_score is not importable, ROUGE-L is timed with a module named `rouge_oracle` found on
ORACLE_DIR (a local transcription of rouge-score's RougeScorer), reported as such.
"""
import argparse
import os
import statistics
import sys
import time

from sacrebleu.metrics import BLEU, CHRF


def read(path, unescape=False):
    with open(path, encoding="utf-8", newline="\n") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [l.replace("\\n", "\n") for l in lines] if unescape else lines


def timeit(fn, repeats):
    times = []
    cpu = []
    value = None
    for _ in range(repeats):
        c0 = time.process_time()
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(times), min(times), statistics.median(cpu), value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    hyps, refs = read(os.path.join(a.dir, "mt.hyp")), read(os.path.join(a.dir, "mt.ref"))
    preds, targets = read(os.path.join(a.dir, "sum.pred"), True), read(os.path.join(a.dir, "sum.ref"), True)
    n = len(hyps)
    rows = []
    # Fresh metric objects per run so tokenizer caches do not carry over between repeats.
    rows.append(("sacrebleu CHRF(word_order=2).corpus_score", *timeit(lambda: CHRF(word_order=2).corpus_score(hyps, [refs]).score, a.repeats)))
    rows.append(("sacrebleu BLEU().corpus_score", *timeit(lambda: BLEU().corpus_score(hyps, [refs]).score, a.repeats)))
    try:
        from rouge_score import rouge_scorer
        label = "rouge_score RougeScorer(['rougeL'])"
        make = lambda stem: rouge_scorer.RougeScorer(["rougeL"], use_stemmer=stem)
        get = lambda r: r["rougeL"].fmeasure
    except ImportError:
        sys.path.insert(0, os.environ.get("ORACLE_DIR", "/tmp/oracle"))
        from rouge_oracle import RougeScorer
        label = "rouge-score algorithm transcription (rouge_score not installed)"
        make = lambda stem: RougeScorer(["rougeL"], stem)
        get = lambda r: r["rougeL"][2]
    for stem in (False, True):
        def run():
            s = make(stem)
            return statistics.fmean(get(s.score(t, p)) for t, p in zip(targets, preds))
        rows.append((f"{label}{' + stemmer' if stem else ''}", *timeit(run, a.repeats)))
    print(f"Python {sys.version.split()[0]}, {n} segments, {a.repeats} repeats")
    for name, med, mn, cpu, v in rows:
        print(f"{name:72s} median {med:7.3f} s  min {mn:7.3f} s  median cpu {cpu:7.3f} s  {med / n * 1e6:8.1f} us/segment  score {v:.4f}")


if __name__ == "__main__":
    main()
