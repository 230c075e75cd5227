"""Builds `extra_postprocess_cases.json`: tricky inputs (Unicode whitespace and digits, astral
characters, LaTeX edge cases, code blocks) run through a local transcription of UltraEval's
tasks/postprocess.py. The transcription is not committed (it is upstream code); it is checked against
golden_postprocess.json first, so a transcription error cannot slip into the expected values.

Usage: ORACLE_DIR=/tmp/oracle python3 generate-extra-cases.py > extra_postprocess_cases.json
The tests never run Python; they only read the JSON.
"""
import json
import os
import sys

sys.path.insert(0, os.environ.get("ORACLE_DIR", "/tmp/oracle"))
import ue_post  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
golden = json.load(open(os.path.join(here, "golden_postprocess.json"), encoding="utf-8"))
for name, fn in ue_post.FUNCS.items():
    for case in golden[name]:
        assert fn(case["in"]) == case["out"], (name, case)

INPUTS = [
    "\u00a0The answer is\u2003B.\u3000",
    "答案是\u3000Ｃ，因为……",
    "Answer: 𝟘 apples; the answer is ２３.",
    "x = ①②③ and y = ²",
    "So the answer is yes.\n\nExtra paragraph",
    "first\r\nsecond\u2028third",
    "\x1c\x1dleading separators 42\x1f",
    "#### -1,234.5\nrest",
    "She has 12 >> 13 apples = 14",
    "total: $1,000,000.",
    "Final answer: \\boxed{\\frac12}",
    "Therefore the result is \\dfrac{3}{4}\\text{ cm}",
    "Thus x = \\sqrt2 + \\sqrt{3}",
    "Hence, it is 3/4.",
    "Hence, it is 03/4.",
    "The final answer is $\\frac{1}{\\sqrt5}$",
    "\\frac",
    "\\fracx",
    "k = .5",
    "1\\text{ m}\\text{ s}",
    "The answer is therefore \\boxed{x = 2}",
    "result \\fbox{7}",
    "\\boxed{unclosed",
    "$a$ and $b = 3$",
    "The value is 3.14159 and 2.71828x",
    "value 5\\n then",
    "```python\nimport math\ndef f(x):\n    return math.sqrt(x)\n```",
    "```\ndef g():\n    return 1\n\n\n\nprint(g())```",
    "from os import path\n\ndef h():\n    pass",
    "only ``` one fence",
    "\tdef k():\n\treturn 2",
    '"""doc"""\ndef f():\n    pass',
    'code\n"""unpaired',
    '""""four quotes',
    "def f():\n    return 1\n#comment\nprint(1)\nif x:\n    pass",
    "x <|endoftext|> y",
    "【答案】A【答案】：B 【答案】 ： C",
    "解析【答案】ＡB C D",
    "The correct one is (E), then (F) and (G).",
    "選項Ｂ is right, answer is Ｂ or B",
    "😀😀😀😀😀😀😀😀😀😀A😀",
    "The ANSWER IS C",
    "a an the A AN The theory",
    "Ünïcödé, ñ and the café.",
    "",
    "   ",
]

out = {}
for name, fn in sorted(ue_post.FUNCS.items()):
    out[name] = [{"in": s, "out": fn(s)} for s in INPUTS]
json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
