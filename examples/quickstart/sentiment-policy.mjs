// A small lexicon-based sentiment "model" for the offline demo: the dev server answers with it, so
// the demo shows a model that does better than the baselines without any network or weights.
const LEXICON = {
  positive: [
    "enak", "ramah", "bersih", "nyaman", "sabar", "senang", "harum", "mantap", "indah", "meriah", "hebat",
    "mudah", "memuaskan", "delicious", "friendly", "wonderful", "clean", "comfortable", "happy", "great",
    "beautiful", "lively", "excellent", "clearly", "satisfying",
  ],
  negative: [
    "kecewa", "terlambat", "rusak", "macet", "lambat", "bising", "mengecewakan", "kotor", "bau", "tidak pernah",
    "disappointed", "late", "broken", "freezing", "slow", "noise", "rude", "disappointing", "dirty", "faulty",
  ],
};

const ANSWERS = {
  id: { tag: "Jawaban:", positive: "Positif", negative: "Negatif", neutral: "Netral" },
  en: { tag: "Answer:", positive: "Positive", negative: "Negative", neutral: "Neutral" },
};

/** Classifies the sentence between the last pair of ``` fences of the prompt. */
export function sentimentPolicy(request) {
  const text = request.lastUserText;
  // The preamble (with the answer tag) is on the first user message; few-shot turns come after it.
  const whole = JSON.stringify(request.messages ?? request.prompt ?? "");
  const lang = whole.includes("Jawaban:") ? ANSWERS.id : ANSWERS.en;
  const fenced = text.split("```");
  const sentence = (fenced.length >= 3 ? fenced[fenced.length - 2] : text).toLowerCase();
  const count = (words) => words.filter((w) => sentence.includes(w)).length;
  const pos = count(LEXICON.positive);
  const neg = count(LEXICON.negative);
  const label = pos > neg ? lang.positive : neg > pos ? lang.negative : lang.neutral;
  return `${lang.tag} ${label}`;
}
