import type { CanvasRecord } from "./generate.js";
import { jsonString } from "./json-text.js";
import { shapeToJson } from "./shape.js";

/** The JSON document of an original data file, keys in upstream's order. */
export function toOriginalJson(record: CanvasRecord): { canvas: unknown[]; descriptions: Record<string, string>; questions: Record<string, unknown> } {
  return { canvas: record.shapes.map(shapeToJson), descriptions: record.descriptions, questions: record.questions };
}

/**
 * `JSON.stringify(toOriginalJson(record), null, 4)` written out directly (same bytes, several
 * times faster; tested); this is the hot path of the `original` layout. Plain loops and strings
 * checked before escaping: generated text never needs it.
 */
export function originalJsonText(record: CanvasRecord): string {
  return jsonText(record, true);
}

/**
 * `originalJsonText` for a record made by `generateCanvas`, whose strings are built only from the
 * fixed vocabularies and templates (attribute words, labels, sentences, ordinals, integers) and so
 * never need escaping (tested on every shape count and both modes): nothing is checked. The check
 * scans every character of the text (about 8% of writing a 3-shape canvas, more at 7).
 */
export function generatedJsonText(record: CanvasRecord): string {
  return jsonText(record, false);
}

const quoted = (s: string): string => `"${s}"`;

function jsonText(record: CanvasRecord, checked: boolean): string {
  const str = checked ? jsonString : quoted;
  const I1 = "\n    ";
  const I2 = "\n        ";
  const I3 = "\n            ";
  const I4 = "\n                ";
  const shapes = record.shapes;
  let out = `{${I1}"canvas": [`;
  for (let k = 0; k < shapes.length; k++) {
    const s = shapes[k]!;
    out +=
      `${k === 0 ? "" : ","}${I2}{${I3}"shape": ${str(s.kind)},${I3}"color": ${str(s.color)},${I3}"size": ${str(s.size)},` +
      `${I3}"center": [${I4}${s.center[0]},${I4}${s.center[1]}${I3}]${I2}}`;
  }
  out += `${shapes.length === 0 ? "]" : `${I1}]`},${I1}"descriptions": {`;
  let k = 0;
  for (const key in record.descriptions) {
    out += `${k++ === 0 ? "" : ","}${I2}${str(key)}: ${str(record.descriptions[key]!)}`;
  }
  out += `${k === 0 ? "}" : `${I1}}`},${I1}"questions": {`;
  k = 0;
  for (const task in record.questions) {
    const qa = record.questions[task as keyof typeof record.questions]!;
    out += `${k++ === 0 ? "" : ","}${I2}${str(task)}: [`;
    for (let j = 0; j < qa.length; j++) {
      const [question, answer] = qa[j]!;
      out += `${j === 0 ? "" : ","}${I3}[${I4}${str(question)},${I4}${typeof answer === "number" ? JSON.stringify(answer) : str(answer)}${I3}]`;
    }
    out += qa.length === 0 ? "]" : `${I2}]`;
  }
  out += `${k === 0 ? "}" : `${I1}}`}\n}`;
  return out;
}
