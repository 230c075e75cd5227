import type { CanvasRecord } from "./generate.js";
import { jsonBody } from "./json-text.js";
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

const same = (s: string): string => s;

/** The indentation and punctuation are folded into few template parts: each part is a string concatenation. */
function jsonText(record: CanvasRecord, checked: boolean): string {
  const b = checked ? jsonBody : same;
  const shapes = record.shapes;
  let out = '{\n    "canvas": [';
  for (let k = 0; k < shapes.length; k++) {
    const s = shapes[k]!;
    out +=
      `${k === 0 ? "" : ","}\n        {\n            "shape": "${b(s.kind)}",\n            "color": "${b(s.color)}",\n            "size": "${b(s.size)}",` +
      `\n            "center": [\n                ${s.center[0]},\n                ${s.center[1]}\n            ]\n        }`;
  }
  out += shapes.length === 0 ? '],\n    "descriptions": {' : '\n    ],\n    "descriptions": {';
  let k = 0;
  for (const key in record.descriptions) {
    out += `${k++ === 0 ? "" : ","}\n        "${b(key)}": "${b(record.descriptions[key]!)}"`;
  }
  out += k === 0 ? '},\n    "questions": {' : '\n    },\n    "questions": {';
  k = 0;
  for (const task in record.questions) {
    const qa = record.questions[task as keyof typeof record.questions]!;
    out += `${k++ === 0 ? "" : ","}\n        "${b(task)}": [`;
    for (let j = 0; j < qa.length; j++) {
      const [question, answer] = qa[j]!;
      out += `${j === 0 ? "" : ","}\n            [\n                "${b(question)}",\n                ${typeof answer === "number" ? JSON.stringify(answer) : `"${b(answer)}"`}\n            ]`;
    }
    out += qa.length === 0 ? "]" : "\n        ]";
  }
  out += k === 0 ? "}\n}" : "\n    }\n}";
  return out;
}
