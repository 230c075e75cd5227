/**
 * Answer extraction for math responses, in the spirit of math_verify's default `parse` (LaTeX and
 * plain-expression targets): the last `\boxed{…}`/`\fbox{…}`, else a "final answer is …" phrase,
 * else the last LaTeX math span, else the last number in the text.
 */

/** Content of the brace group opening at `open` (index of "{"), or undefined when unbalanced. */
function braceGroup(text: string, open: number): { content: string; end: number } | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && i + 1 < text.length) {
      i++;
      continue;
    }
    if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) return { content: text.slice(open + 1, i), end: i };
    }
  }
  return undefined;
}

/** Every `\boxed{…}` / `\fbox{…}` content, in order. */
export function boxedContents(text: string): string[] {
  const out: string[] = [];
  const re = /\\(?:boxed|fbox)\s*\{/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const group = braceGroup(text, m.index + m[0].length - 1);
    if (group) out.push(group.content);
  }
  return out;
}

const NUMBER_RE = /-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*\/\s*\d+)?|-?\.\d+/g;

/** The candidate answer text of a response, or undefined when nothing looks like an answer. */
export function extractMathAnswer(text: string): string | undefined {
  const boxed = boxedContents(text);
  if (boxed.length > 0) return boxed[boxed.length - 1];

  const finals = [...text.matchAll(/final answer is[:\s]*(\$\$?[^$]+\$\$?|[^\n]+)/gi)];
  const lastFinal = finals[finals.length - 1];
  if (lastFinal?.[1]) return lastFinal[1].replace(/^\$+|\$+$/g, "").replace(/[.\s]+$/, "");

  const spans = [...text.matchAll(/\$\$([^$]+)\$\$|\$([^$]+)\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)/g)];
  const lastSpan = spans[spans.length - 1];
  if (lastSpan) return lastSpan[1] ?? lastSpan[2] ?? lastSpan[3] ?? lastSpan[4];

  const numbers = text.match(NUMBER_RE);
  return numbers ? numbers[numbers.length - 1] : undefined;
}
