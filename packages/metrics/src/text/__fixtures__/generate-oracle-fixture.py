"""Builds `multilingual-pairs.json`: varied segment pairs with expected values computed by the
real upstream packages, run offline from local wheels:

  * sacrebleu 2.6.0 (BLEU with every tokenizer we support, chrF, chrF++),
  * NLTK 3.10.3's PorterStemmer (the stemmer rouge-score calls),
  * ROUGE from a local, uncommitted transcription of rouge-score's RougeScorer (rouge-score itself
    has no wheel on this machine), fed with the real NLTK stemmer.

Usage: ORACLE_DIR=/tmp/oracle python generate-oracle-fixture.py > multilingual-pairs.json
(ORACLE_DIR holds rouge_oracle.py). The tests never run Python; they only read the JSON.
"""
import json
import os
import random
import sys

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF
from nltk.stem.porter import PorterStemmer

sys.path.insert(0, os.environ.get("ORACLE_DIR", "/tmp/oracle"))
from rouge_oracle import RougeScorer  # noqa: E402

BASE = {
    "en": [
        "The quick brown fox jumps over the lazy dog.",
        "It wasn't surprising that the committee postponed its decision until next week.",
        "Prices rose by 3.5% in 2023, reaching $1,250.75 per unit (up from $1,100).",
        "She said: \"Don't worry -- we'll fix it tomorrow!\"",
        "Running, runners and runs were generalized into generalization studies.",
        "The hopefulness of the nationalization plans was conditional on relational databases.",
    ],
    "th": [
        "ฉันชอบกินข้าวผัดกับไข่ดาวทุกเช้า",
        "วันนี้อากาศร้อนมาก เราจึงไปว่ายน้ำที่สระ",
        "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย มีประชากรประมาณ 10 ล้านคน",
    ],
    "zh": [
        "我今天去商店买了三个苹果和两瓶牛奶。",
        "北京是中华人民共和国的首都，有着悠久的历史。",
        "他说：“这个问题很复杂——我们需要更多时间。”",
        "2024年的经济增长率为5.2%，高于预期。",
    ],
    "id": [
        "Saya pergi ke pasar untuk membeli sayur-sayuran dan buah-buahan.",
        "Pemerintah Indonesia mengumumkan kebijakan baru pada hari Senin.",
        "Anak-anak bermain sepak bola di lapangan setelah sekolah selesai.",
    ],
    "vi": [
        "Tôi đã đi đến thư viện để mượn vài cuốn sách về lịch sử Việt Nam.",
        "Hà Nội là thủ đô của nước Cộng hòa Xã hội chủ nghĩa Việt Nam.",
        "Thời tiết hôm nay rất đẹp, trời nắng và có gió nhẹ.",
    ],
    "ar": [
        "ذهبت إلى السوق لشراء الخضروات والفواكه الطازجة.",
        "القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها.",
        "قال المتحدث: «سنعلن النتائج غداً، إن شاء الله».",
    ],
    "ta": ["நான் நேற்று சென்னைக்கு சென்றேன்.", "தமிழ் ஒரு பழமையான மொழி ஆகும்."],
    "my": ["မြန်မာနိုင်ငံသည် အရှေ့တောင်အာရှတွင် တည်ရှိသည်။"],
    "ja": ["東京は日本の首都で、人口は約1400万人です。", "今日はとても暑いですね！"],
    "ko": ["서울은 대한민국의 수도입니다.", "오늘 날씨가 정말 좋네요!"],
    "ru": ["Москва — столица Российской Федерации.", "Сегодня я прочитал интересную книгу."],
    "de": ["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich.", "Straße, Größe und Übermaß."],
    "emoji": ["I love pizza 🍕🍕 and coffee ☕!", "Great job 👍🏽👏 see you at 10:30 🎉", "👨‍👩‍👧‍👦 family time ❤️"],
}

WS_VARIANTS = ["  ", "\t", "\u00a0", "\u3000", "\u2009", "\x1c", "\u0085", "\n"]


def perturb(rng, s):
    """A plausible system output: word drops/swaps/dups, case, punctuation and spacing changes."""
    words = s.split(" ")
    ops = rng.sample(["drop", "swap", "dup", "case", "punct", "space", "entity", "none"], k=rng.randint(1, 3))
    for op in ops:
        if op == "drop" and len(words) > 2:
            del words[rng.randrange(len(words))]
        elif op == "swap" and len(words) > 2:
            i = rng.randrange(len(words) - 1)
            words[i], words[i + 1] = words[i + 1], words[i]
        elif op == "dup" and words:
            i = rng.randrange(len(words))
            words.insert(i, words[i])
        elif op == "case":
            words = [w.upper() if rng.random() < 0.3 else w for w in words]
    out = " ".join(words)
    if "punct" in ops:
        out = out.replace(".", " .").replace(",", " ,") if rng.random() < 0.5 else out.rstrip(".!。") + rng.choice(["", "!", "?", " .", "..."])
    if "space" in ops:
        out = rng.choice(WS_VARIANTS).join(out.split(" ")) + rng.choice(["", " ", "\t", "\u3000"])
    if "entity" in ops:
        out = out + rng.choice([" &amp; co", " &quot;ok&quot;", " &lt;b&gt;", " <skipped>"])
    return out


def build_pairs():
    rng = random.Random(20261122)
    pairs = []
    sentences = [(lang, s) for lang, ss in BASE.items() for s in ss]
    for lang, s in sentences:  # identical pairs
        pairs.append({"lang": lang, "hyp": s, "refs": [s]})
    for _ in range(4):
        for lang, s in sentences:
            refs = [s]
            if rng.random() < 0.3:
                refs.append(perturb(rng, s))
            if rng.random() < 0.1:
                refs.append("")
            pairs.append({"lang": lang, "hyp": perturb(rng, s), "refs": refs})
    # corner cases
    pairs += [
        {"lang": "edge", "hyp": "", "refs": ["The reference is not empty."]},
        {"lang": "edge", "hyp": "Only the hypothesis.", "refs": [""]},
        {"lang": "edge", "hyp": "", "refs": [""]},
        {"lang": "edge", "hyp": "   ", "refs": ["\t"]},
        {"lang": "edge", "hyp": "a", "refs": ["a"]},
        {"lang": "edge", "hyp": "a", "refs": ["b"]},
        {"lang": "edge", "hyp": "(hi)", "refs": ["( hi )"]},
        {"lang": "edge", "hyp": "...!!!", "refs": ["?!"]},
        {"lang": "edge", "hyp": "3-4 1,000 2.5 .5 5. a.b a,b", "refs": ["3 - 4 1,000 2.5 .5 5 . a . b a , b"]},
        {"lang": "edge", "hyp": "e-mail me@example.com http://x.y/z?a=1&b=2", "refs": ["email me @ example.com http://x.y/z?a=1&b=2"]},
        {"lang": "edge", "hyp": "“Quoted” — dash … ellipsis € euro", "refs": ["\"Quoted\" - dash ... ellipsis EUR euro"]},
        {"lang": "edge", "hyp": "𠀀𠀁 astral CJK 𝕏 math", "refs": ["𠀀 astral CJK X math"]},
        {"lang": "edge", "hyp": "word-\nbreak line\nbreak", "refs": ["wordbreak line break"]},
        {"lang": "edge", "hyp": "ĲSSEL İstanbul ǅemal ẞtraße", "refs": ["ijssel istanbul džemal sstraße"]},
        {"lang": "edge", "hyp": "caf\u00e9 cafe\u0301", "refs": ["café café"]},
        {"lang": "edge", "hyp": "tabs\tand\u000bvertical\u000cfeeds\rreturns", "refs": ["tabs and vertical feeds returns"]},
        {"lang": "edge", "hyp": "zero\u200bwidth\ufeffbom", "refs": ["zero width bom"]},
    ]
    # long segments
    for k in range(6):
        lang = rng.choice(list(BASE))
        ref = " ".join(rng.choice(BASE[lang]) for _ in range(30 + 10 * k))
        pairs.append({"lang": f"long-{lang}", "hyp": perturb(rng, ref) + " " + perturb(rng, ref[: len(ref) // 2]), "refs": [ref]})
    for i, p in enumerate(pairs):
        p["id"] = f"p{i:03d}"
    return pairs


BLEU_TOKS = ["13a", "none", "intl", "char", "zh"]


def main():
    pairs = build_pairs()
    hyps = [p["hyp"] for p in pairs]
    max_refs = max(len(p["refs"]) for p in pairs)
    # sacrebleu's variable-reference convention: pad with None
    ref_streams = [[p["refs"][k] if k < len(p["refs"]) else None for p in pairs] for k in range(max_refs)]
    rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    rs = {False: RougeScorer(rouge_types, False), True: RougeScorer(rouge_types, True)}
    corpus = {}
    for tok in BLEU_TOKS:
        s = BLEU(tokenize=tok).corpus_score(hyps, ref_streams)
        corpus[f"bleu_{tok}"] = {"score": s.score, "counts": s.counts, "totals": s.totals, "precisions": s.precisions,
                                  "bp": s.bp, "sys_len": s.sys_len, "ref_len": s.ref_len}
    corpus["bleu_13a_lowercase"] = BLEU(lowercase=True).corpus_score(hyps, ref_streams).score
    corpus["chrf"] = CHRF().corpus_score(hyps, ref_streams).score
    corpus["chrf++"] = CHRF(word_order=2).corpus_score(hyps, ref_streams).score
    corpus["chrf_eps"] = CHRF(eps_smoothing=True).corpus_score(hyps, ref_streams).score
    corpus["chrf++_lowercase_whitespace"] = CHRF(word_order=2, lowercase=True, whitespace=True).corpus_score(hyps, ref_streams).score
    sent = {tok: BLEU(tokenize=tok, effective_order=True) for tok in BLEU_TOKS}
    chrf, chrfpp = CHRF(), CHRF(word_order=2)
    for p in pairs:
        refs = p["refs"]
        e = {}
        for tok in BLEU_TOKS:
            e[f"bleu_{tok}"] = sent[tok].sentence_score(p["hyp"], refs).score
        e["chrf"] = chrf.sentence_score(p["hyp"], refs).score
        e["chrf++"] = chrfpp.sentence_score(p["hyp"], refs).score
        e["tokens_13a"] = BLEU(tokenize="13a").tokenizer(p["hyp"].rstrip()).split()
        e["tokens_zh"] = BLEU(tokenize="zh").tokenizer(p["hyp"].rstrip()).split()
        e["tokens_intl"] = BLEU(tokenize="intl").tokenizer(p["hyp"].rstrip()).split()
        for stem in (False, True):
            scorer = rs[stem]
            r = scorer.score(refs[0], p["hyp"]) if len(refs) == 1 else scorer.score_multi(refs, p["hyp"])
            for t in rouge_types:
                e[f"{t}{'_stem' if stem else ''}"] = list(r[t])
        p["expected"] = e
    out = {
        "about": "Expected values from sacrebleu 2.6.0, NLTK 3.10.3 PorterStemmer and a local transcription of "
                 "rouge-score's RougeScorer; see generate-oracle-fixture.py.",
        "sacrebleu_version": sacrebleu.__version__,
        "pairs": pairs,
        "corpus": corpus,
    }
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
