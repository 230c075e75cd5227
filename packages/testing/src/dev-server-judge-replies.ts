/**
 * Plausible judge replies for the dev server's echo policy, so a run judged through the dev server
 * parses end to end. Each reply is chosen deterministically from a hash of the request's messages:
 *
 * - pairwise (a system prompt naming verdict labels like `[[A]]`, `[[B]]`): a short comparison and one label;
 * - rubric (a system prompt asking for `CHOICE: <label>` with a `Labels: a | b` line): a sentence and one choice line;
 * - HealthBench (`criteria_met` in the system prompt): a ```json block with `explanation` and `criteria_met`;
 * - criteria (`<classification>` and `CLASS_…` names in the prompt): a reflection and one of the named classes;
 * - verdict (AA-LCR/MathVision: "CORRECT or INCORRECT" with a "CANDIDATE ANSWER"; BabyVision: "TRUE or FALSE"
 *   with a "Ground Truth Answer"): the verdict word alone.
 *
 * Anything else is not a judge prompt (undefined), and the echo policy echoes as before.
 */
import { messageText } from "./dev-server-answers.js";
import type { DevChatMessage } from "./dev-server-schemas.js";

/** FNV-1a over the messages: the same request always gets the same reply. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function pick<T>(items: readonly T[], seed: number): T {
  return items[seed % items.length]!;
}

function unique(matches: Iterable<RegExpMatchArray>, group = 0): string[] {
  return [...new Set([...matches].map((m) => m[group]!))];
}

/** The judge reply for a chat request, or undefined when the request is not a judge prompt. */
export function judgeReply(messages: readonly DevChatMessage[] | undefined): string | undefined {
  if (!messages || messages.length === 0) return undefined;
  const system = messages
    .filter((m) => m.role === "system")
    .map(messageText)
    .join("\n");
  let user = "";
  for (const m of messages) if (m.role === "user") user = messageText(m);
  const seed = hash(`${system}\u0000${user}`);

  const verdictLabels = unique(system.matchAll(/\[\[[A-Z]\]\]/g));
  if (verdictLabels.length >= 2) {
    const label = pick(verdictLabels, seed);
    return `Both assistants address the question. Weighing helpfulness, accuracy and detail, I reach my verdict.\n\n${label}`;
  }

  const rubricLabels = /CHOICE: <label>/.test(system) ? /^Labels: (.+)$/m.exec(system)?.[1]?.split(" | ") : undefined;
  if (rubricLabels && rubricLabels.length > 0) {
    return `The response was weighed against the rubric.\nCHOICE: ${pick(rubricLabels, seed)}`;
  }

  if (system.includes("criteria_met")) {
    const met = seed % 2 === 0;
    const explanation = met ? "The response meets the rubric item." : "The response does not meet the rubric item.";
    return `\`\`\`json\n${JSON.stringify({ explanation, criteria_met: met }, null, 2)}\n\`\`\``;
  }

  const all = `${system}\n${user}`;
  if (all.includes("<classification>")) {
    const classes = unique(all.matchAll(/\bCLASS_[A-Z_]+\b/g));
    if (classes.length > 0) {
      const cls = pick(classes, seed);
      return `<reflection>The text was compared with the criterion; ${cls} fits best.</reflection><classification>${cls}</classification>`;
    }
  }

  if (user.includes("CORRECT or INCORRECT") && user.includes("CANDIDATE ANSWER")) return pick(["CORRECT", "INCORRECT"], seed);
  if (user.includes("TRUE or FALSE") && user.includes("Ground Truth Answer")) return pick(["TRUE", "FALSE"], seed);
  return undefined;
}
