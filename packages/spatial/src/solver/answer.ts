import { relationsOf } from "../relations.js";
import { bbox, type Shape } from "../shape.js";
import type { Color, ShapeKind, Size } from "../constants.js";
import { LABEL, type ParsedDescription, parseDescription } from "./parse.js";

/**
 * `entailed`: the description determines the answer. `ambiguous`: the text allows more than one
 * answer (the answer is a best guess). `unanswerable`: the question could not be read or the text
 * says nothing about it.
 */
export interface SolverAnswer {
  status: "entailed" | "ambiguous" | "unanswerable";
  answer: string | undefined;
  reason?: string;
}

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, eigth: 8, ninth: 9,
  tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16,
  seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

function parseOrdinal(word: string): number | undefined {
  if (ORDINALS[word] !== undefined) return ORDINALS[word];
  const m = word.match(/^(\w+)-(\w+)$/);
  if (m && TENS[m[1]!] !== undefined && ORDINALS[m[2]!] !== undefined && ORDINALS[m[2]!]! < 10) return TENS[m[1]!]! + ORDINALS[m[2]!]!;
  return undefined;
}

function labelToShape(label: string, center: [number, number]): Shape {
  const [size, color, kind] = label.split(" ").map((w) => w.charAt(0).toUpperCase() + w.slice(1)) as [Size, Color, ShapeKind];
  return { kind, color, size, center };
}

interface Query {
  kind?: string;
  size?: string;
  color?: string;
}
const matchesQuery = (label: string, q: Query) => {
  const [size, color, kind] = label.split(" ");
  return (q.size === undefined || size === q.size) && (q.color === undefined || color === q.color) && (q.kind === undefined || kind === q.kind);
};

const L = `(${LABEL})`;
const Q_EXIST_COLOR = /^Is there a shape that is (red|blue|yellow|green)\?$/;
const Q_EXIST = /^Is there a (?:(small|large) )?(?:(red|blue|yellow|green) )?(shape|square|circle|triangle)\?$/;
const Q_TRACK = new RegExp(`^Is there a ${L} in the canvas\\?$`);
const Q_COUNT = /^How many (?:(small|large) )?(?:(red|blue|yellow|green) )?(shape|square|circle|triangle)s are there\?$/;
const Q_WHERE = new RegExp(`^Where is the ${L} relative to the ${L}\\?$`);
const Q_NTH = /^What shape is ([\w-]+) from the (left|right|top|bottom)\?$/;

/** The shapes on the canvas and whether the text lists all of them. */
function population(d: ParsedDescription): { shapes: Set<string>; complete: boolean } {
  const listed = d.afterOps ?? new Set(d.declared);
  const complete = d.announced !== undefined && d.declared.length >= d.announced && !d.image;
  return { shapes: listed, complete };
}

function existence(d: ParsedDescription, q: Query): SolverAnswer {
  const { shapes, complete } = population(d);
  if ([...shapes].some((s) => matchesQuery(s, q))) return { status: "entailed", answer: "Yes" };
  if (complete) return { status: "entailed", answer: "No" };
  return { status: "ambiguous", answer: "No", reason: "the description does not list every shape" };
}

function where(d: ParsedDescription, a: string, b: string): SolverAnswer {
  if (d.chain !== undefined) {
    const pa = d.chain.positions.get(a);
    const pb = d.chain.positions.get(b);
    const [low, high] = d.chain.axis === "horizontal" ? ["Left", "Right"] : ["Below", "Above"];
    if (pa === undefined || pb === undefined) {
      return { status: "ambiguous", answer: high, reason: `the chain does not mention the ${pa === undefined ? a : b}` };
    }
    if (pa === pb) return { status: "ambiguous", answer: high, reason: "both shapes are at the same chain position" };
    return { status: "entailed", answer: pa < pb ? low : high };
  }
  const ca = d.coordinates.get(a);
  const cb = d.coordinates.get(b);
  if (ca !== undefined && cb !== undefined) {
    // The benchmark's answer follows the bounding-box edge rule, computable from centre and size.
    const shapes = [labelToShape(b, cb.center), labelToShape(a, ca.center)];
    const rel = relationsOf(shapes.map(bbox), 0);
    const y = rel.Above.includes(1) ? "Above" : rel.Below.includes(1) ? "Below" : "";
    const x = rel.Left.includes(1) ? "Left" : rel.Right.includes(1) ? "Right" : "";
    const answer = [y, x].filter((w) => w !== "").join(" ");
    const dx = ca.center[0] - cb.center[0];
    const dy = ca.center[1] - cb.center[1];
    const naive = [dy > 0 ? "Above" : dy < 0 ? "Below" : "", dx < 0 ? "Left" : dx > 0 ? "Right" : ""].filter((w) => w !== "").join(" ");
    if (answer === "") return { status: "unanswerable", answer: undefined, reason: "no relation on either axis" };
    if (naive !== answer) return { status: "ambiguous", answer, reason: `edge rule gives "${answer}", centres give "${naive}"` };
    return { status: "entailed", answer };
  }
  const direct = d.relations.get(a)?.get(b);
  if (direct !== undefined) return { status: "entailed", answer: direct.join(" ") };
  const reverse = d.relations.get(b)?.get(a);
  if (reverse !== undefined) {
    const flip: Record<string, string> = { Above: "Below", Below: "Above", Left: "Right", Right: "Left" };
    return {
      status: "ambiguous",
      answer: reverse.map((w) => flip[w]!).join(" "),
      reason: "only the reverse relation is stated (the rule is not symmetric on tied edges)",
    };
  }
  return { status: "unanswerable", answer: undefined, reason: `nothing relates the ${a} to the ${b}` };
}

function nth(d: ParsedDescription, word: string, origin: string): SolverAnswer {
  const k = parseOrdinal(word);
  if (d.line === undefined) return { status: "unanswerable", answer: undefined, reason: "no line of shapes in the description" };
  if (k === undefined || k > d.line.order.length) return { status: "unanswerable", answer: undefined, reason: `bad position "${word}"` };
  const idx = origin === "right" || origin === "top" ? d.line.order.length - k : k - 1;
  return { status: "entailed", answer: d.line.order[idx] };
}

/** Answers one question from one description text, with how sure the text makes the answer. */
export function solveQuestion(description: string, question: string): SolverAnswer {
  const d = parseDescription(description);
  const q = question.trim();
  let m: RegExpMatchArray | null;
  if ((m = q.match(Q_TRACK))) return existence(d, { ...splitLabel(m[1]!) });
  if ((m = q.match(Q_EXIST_COLOR))) return existence(d, { color: m[1]! });
  if ((m = q.match(Q_EXIST))) return existence(d, { size: m[1], color: m[2], kind: m[3] === "shape" ? undefined : m[3] });
  if ((m = q.match(Q_COUNT))) {
    const { shapes, complete } = population(d);
    const query = { size: m[1], color: m[2], kind: m[3] === "shape" ? undefined : m[3] };
    const n = [...shapes].filter((s) => matchesQuery(s, query)).length;
    return complete ? { status: "entailed", answer: String(n) } : { status: "ambiguous", answer: String(n), reason: "the description does not list every shape" };
  }
  if ((m = q.match(Q_WHERE))) return where(d, m[1]!, m[2]!);
  if ((m = q.match(Q_NTH))) return nth(d, m[1]!, m[2]!);
  return { status: "unanswerable", answer: undefined, reason: "question not recognised" };
}

function splitLabel(label: string): Query {
  const [size, color, kind] = label.split(" ");
  return { size, color, kind };
}
