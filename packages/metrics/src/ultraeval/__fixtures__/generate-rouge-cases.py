"""Builds `rouge_cases.json`: UltraEval's ROUGE (rouge_chinese underneath) on varied pairs, with the
sacrebleu tokenizer "none" (identity) so no sacrebleu is needed. The values come from a local,
uncommitted transcription of rouge_chinese 1.0.3 and UltraEval metrics/rouge.py.
Usage: ORACLE_DIR=/tmp/oracle python3 generate-rouge-cases.py > rouge_cases.json"""
import json
import os
import sys

sys.path.insert(0, os.environ.get("ORACLE_DIR", "/tmp/oracle"))
from rouge_cn import ultraeval_rouge  # noqa: E402

PAIRS = [
    ("the cat sat on the mat", "the cat is on the mat"),
    ("the the the cat", "the cat the cat"),
    ("今天 天气 很 好 。 我们 去 公园 吧 ！", "今天 天气 不错 。 去 公园 ！"),
    ("他 说 ： “ 好 。 ” 然后 走 了", "他 说 好 然后 走 了"),
    ("a b c d e f", "f e d c b a"),
    ("one two. three four.", "one two three four"),
    ("wait...... what? yes", "wait what yes"),
    ("短 句", "完全 不同 的 句子"),
    ("", "non empty"),
    ("   ", "x"),
    ("x y z", ["x y", "y z", "z"]),
    ("A b. C d", ["a b c d", "A b C d"]),
    ("问题 ？ 答案 … … 结束", "问题 答案 结束"),
]
out = []
for hyp, ref in PAIRS:
    expected = {f"{t}-{i}": ultraeval_rouge(ref, hyp, f"rouge-{t}", i) for t in ("1", "2", "l") for i in "fpr"}
    out.append({"hyp": hyp, "ref": ref, "expected": expected})
json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
