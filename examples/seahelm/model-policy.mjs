// The "model" the dev server plays in this example: small rules that answer the three tasks well
// but not perfectly, so the scores mean something without any network or weights. It reads the
// prompt the way a model would: the item is in the last ``` fenced block of the prompt. Like a
// sampled model, it answers differently with another request seed: with an odd seed it calls
// sentences with a single cue word neutral and cuts summaries after eight words.
const POSITIVE = ["enak", "ramah", "bersih", "nyaman", "indah", "senang", "meriah", "hebat", "harum", "mantap", "memuaskan"];
const NEGATIVE = ["kecewa", "terlambat", "rusak", "lambat", "macet", "tidak pernah", "kotor", "bau", "bising", "mengecewakan"];

/** The text between the last pair of ``` fences, and what follows it (the options of a question). */
function lastItem(prompt) {
  const parts = prompt.split("```");
  if (parts.length < 3) return { item: prompt, after: "" };
  return { item: parts[parts.length - 2].trim(), after: parts[parts.length - 1] };
}

function sentiment(text, hesitant) {
  const lower = text.toLowerCase();
  const pos = POSITIVE.filter((w) => lower.includes(w)).length;
  const neg = NEGATIVE.filter((w) => lower.includes(w)).length;
  if (hesitant && pos + neg === 1) return "Netral";
  return pos > neg ? "Positif" : neg > pos ? "Negatif" : "Netral";
}

/** The option with the longest text: right more often than not in this example's questions. */
function longestOption(after) {
  let best = "A";
  let bestLength = -1;
  for (const m of after.matchAll(/^([ABCD]): (.*)$/gm)) {
    if (m[2].length > bestLength) [best, bestLength] = [m[1], m[2].length];
  }
  return best;
}

export function seaModel(request) {
  const prompt = request.lastUserText;
  const whole = request.endpoint === "completion" ? prompt : JSON.stringify(request.messages ?? []);
  const { item, after } = lastItem(prompt);
  const oddSeed = Number(request.body.seed ?? 0) % 2 === 1;
  let tag;
  let answer;
  if (whole.includes("Rangkum")) {
    tag = "Rangkuman:";
    const first = item.split(". ")[0].replace(/\.$/, "");
    answer = `${oddSeed ? first.split(" ").slice(0, 8).join(" ") : first}.`;
  } else if (whole.includes("Pertanyaan:")) {
    tag = "Jawaban:";
    answer = longestOption(after);
  } else {
    tag = "Jawaban:";
    answer = sentiment(item, oddSeed);
  }
  // A base model asked again after the answer tag (SEA-HELM's base-model strategy) continues with the answer.
  if (request.endpoint === "completion" && prompt.trimEnd().endsWith(tag)) return ` ${answer}`;
  return `${tag} ${answer}`;
}
