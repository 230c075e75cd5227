"""Builds `porter-nltk.tsv`: word<TAB>stem pairs from NLTK 3.10.3's PorterStemmer (default
NLTK_EXTENSIONS mode, the one rouge-score uses), run offline from a local wheel.
Words: common English stems with many suffixes, NLTK's irregular forms, and random letter strings
ending in every suffix the algorithm knows. Usage: python generate-porter-fixture.py > porter-nltk.tsv
"""
import random
from nltk.stem.porter import PorterStemmer

BASES = """abandon able absorb accept access accident account achieve act adapt add adjust admire adopt advance
agree allow alter analyze announce answer appear apply argue arrange arrive ask assess assume attach attend
bake balance bear beat become begin believe belong bend bless block boil bore bother bounce box brave break
breathe bring build burn bury buy calculate call calm care carry catch cause cease celebrate challenge change
charge chase cheat check cheer choose claim clean climb close collect combine come comfort communicate compare
compete complain complete compute concern condition conduct confirm connect consider construct contain continue
control convert cook correct count cover crash create cross cry cure cut damage dance deal debate decide declare
define delay deliver demand deny depend describe design destroy develop die differ digit direct discover
discuss divide double doubt drag draw dream dress drink drive drop dry earn eat educate effect elect emotion
employ empty enable encourage end enjoy enter equal escape establish estimate evaluate examine exceed excite
exist expand expect explain explode express extend face fail fall feed feel fight fill find finish fit fix
flow fly fold follow forget form found free freeze generate generous gentle geology give glad globe govern
grade grant grow guess guide hang happen happy harm hate head heal hear heat help hesitate hide hire hold hope
hop hunt hurry identify ignore imagine improve include increase indicate inform innovate insist install
intend interest introduce invent invest invite involve join judge jump keep kill kind kiss know label lack
land last laugh lead learn leave lend lie lift light like limit link listen live locate look lose love
maintain manage mark marry match matter mean measure meet mention merge mind miss mix move nation need
neglect note notice number obey object observe obtain occur offer open operate order organize owe own paint
pass pay perform permit persuade pick place plan plant play please plot point polite possess post pour
practice prefer prepare present preserve press prevent price print proceed produce profit promise protect
prove provide publish pull punish push qualify question quick quit race rain raise rational reach read
realize receive recognize record reduce refer reflect refuse regret relate relax rely remain remember remove
repeat replace reply report represent require rescue respect respond rest retire return reveal review ride
ring rise risk roll rule run rush sad satisfy save say scan search see seem select sell send sense sensitive
separate serve settle shake share shine shoot shop show shut sing sink sit sky sleep slide smile solve speak
spend spy stand start state stay steal stop store study succeed suggest supply support suppose surprise
survive suspect swim switch take talk taste teach tell tend test thank think throw tie tire total touch
trade train transfer travel treat trust try turn understand unite use value vary visit vote wait walk want
warn wash waste watch wear win wish wonder work worry write yell""".split()

SUFFIXES = ["", "s", "es", "ies", "ed", "ied", "ing", "er", "ers", "ly", "ness", "ful", "fully", "fulness", "ment",
            "ments", "ation", "ations", "ational", "tional", "ization", "izer", "ize", "ise", "ive", "ively", "iveness",
            "ity", "ities", "ability", "ibility", "able", "ible", "al", "ally", "alism", "alist", "ance", "ence",
            "ancy", "ency", "ant", "ent", "ently", "ism", "ist", "ous", "ously", "ousness", "ic", "ical", "ically",
            "icate", "iciti", "ative", "alize", "aliti", "iviti", "biliti", "bli", "logi", "eli", "entli", "ousli",
            "ator", "ion", "ions", "ou", "iti", "ate", "e", "y", "ll", "eed", "eeds", "at", "bl", "iz"]

IRREGULAR = ["sky", "skies", "dying", "lying", "tying", "news", "innings", "inning", "outings", "outing",
             "cannings", "canning", "howe", "proceed", "exceed", "succeed", "oed", "ied", "ies", "yes", "y", "ys"]


def main():
    rng = random.Random(7)
    words = set(IRREGULAR)
    for b in BASES:
        for s in SUFFIXES:
            words.add(b + s)
            if b.endswith("e"):
                words.add(b[:-1] + s)
            if b.endswith("y"):
                words.add(b[:-1] + "i" + s)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for _ in range(3000):
        stem = "".join(rng.choice(letters + "aeiouy" * 2) for _ in range(rng.randint(1, 8)))
        words.add(stem + rng.choice(SUFFIXES))
    # A deterministic sample keeps the fixture small (~200 KB); all 54k words were checked once.
    chosen = sorted(rng.sample(sorted(words), 12000))
    ps = PorterStemmer()
    for w in chosen:
        if len(w) > 0:
            print(f"{w}\t{ps.stem(w)}")


if __name__ == "__main__":
    main()
