/**
 * Reads a description text back into facts. It knows every sentence template the generator writes
 * (both modes) and nothing about the canvas itself.
 */

export const LABEL = "(?:small|large) (?:red|blue|yellow|green) (?:square|circle|triangle)";

export interface CoordinateFact {
  center: [number, number];
  /** Radius for circles, side length otherwise. */
  measure: number;
}

export interface Chain {
  axis: "horizontal" | "vertical";
  /** Position on the axis: origin 0, more negative = further left/below. */
  positions: Map<string, number>;
}

export interface ParsedDescription {
  /** The number of shapes the header announces, if any. */
  announced: number | undefined;
  /** Shapes declared by "There is a X ..." sentences, in order. */
  declared: string[];
  /** subject -> object -> ["Above", "Left"] style direction words (from "A X is ... this Y"). */
  relations: Map<string, Map<string, string[]>>;
  coordinates: Map<string, CoordinateFact>;
  chain: Chain | undefined;
  /** Shuffle line in ascending order (left→right or bottom→top) after all swaps. */
  line: { axis: "horizontal" | "vertical"; order: string[] } | undefined;
  /** Shapes on the canvas after the add/remove operations (undefined when there were none). */
  afterOps: Set<string> | undefined;
  /** The prompt shows an image instead of a text description. */
  image: boolean;
  /** Sentences no template matched (a sign of a foreign or corrupted description). */
  unknown: string[];
}

const re = (s: string) => new RegExp(`^${s}$`);
const L = `(${LABEL})`;
const HEADER = /^There (?:are (\d+) shapes|is 1 shape) in a canvas$/;
const DECLARE = re(`There is a ${L} in the canvas`);
const COORD = re(`There is a ${L} at \\((-?\\d+), (-?\\d+)\\) with (radius|side length) (\\d+)`);
const RELATION = re(`A ${L} is (to the (above|below) (left|right) of|(left|right) of|(above|below)) this ${L}`);
const CHAIN_H = re(`To the (left|right) of the ${L} is a ${L}`);
const CHAIN_V = re(`(Above|Below) the ${L} is a ${L}`);
const LINE = /^From (left to right|right to left|top to bottom|bottom to top), the shapes are (.*)$/;
const SWAP = re(`The ${L} and the ${L} swap positions`);
const ADD = re(`A ${L} is added to the canvas`);
const REMOVE = re(`The ${L} is removed from the canvas`);
const IMAGE = /^The image shows a canvas with (\d+) shapes?$/;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function splitSentences(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => !/^(Question|Answer):/.test(line.trim()))
    .join(" ")
    .split(/\.(?:\s+|$)/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function parseDescription(text: string): ParsedDescription {
  const out: ParsedDescription = {
    announced: undefined,
    declared: [],
    relations: new Map(),
    coordinates: new Map(),
    chain: undefined,
    line: undefined,
    afterOps: undefined,
    image: false,
    unknown: [],
  };
  const declare = (label: string) => {
    if (!out.declared.includes(label)) out.declared.push(label);
  };
  const ops: [string, string][] = [];
  let m: RegExpMatchArray | null;
  for (const s of splitSentences(text)) {
    if ((m = s.match(HEADER))) out.announced = m[1] === undefined ? 1 : Number(m[1]);
    else if ((m = s.match(IMAGE))) {
      out.image = true;
      out.announced = Number(m[1]);
    } else if ((m = s.match(DECLARE))) declare(m[1]!);
    else if ((m = s.match(COORD))) {
      declare(m[1]!);
      out.coordinates.set(m[1]!, { center: [Number(m[2]), Number(m[3])], measure: Number(m[5]) });
    } else if ((m = s.match(RELATION))) {
      const subject = m[1]!;
      const object = m[7]!;
      const words = m[3] !== undefined ? [cap(m[3]), cap(m[4]!)] : [cap((m[5] ?? m[6])!)];
      let row = out.relations.get(subject);
      if (row === undefined) out.relations.set(subject, (row = new Map()));
      row.set(object, words);
    } else if ((m = s.match(CHAIN_H) ?? s.match(CHAIN_V))) {
      const dir = m[1]!.toLowerCase();
      const axis = dir === "left" || dir === "right" ? "horizontal" : "vertical";
      const prev = m[2]!;
      const next = m[3]!;
      if (out.chain === undefined) {
        const origin = out.declared[out.declared.length - 1] ?? prev;
        out.chain = { axis, positions: new Map([[origin, 0]]) };
      }
      const p = out.chain.positions.get(prev);
      if (p !== undefined && out.chain.axis === axis) out.chain.positions.set(next, p + (dir === "left" || dir === "below" ? -1 : 1));
      else out.unknown.push(s);
    } else if ((m = s.match(LINE))) {
      const items = [...m[2]!.matchAll(new RegExp(`a (${LABEL})`, "g"))].map((x) => x[1]!);
      const order = m[1] === "right to left" || m[1] === "top to bottom" ? items.reverse() : items;
      items.forEach(declare);
      out.line = { axis: m[1]!.includes("left") ? "horizontal" : "vertical", order };
    } else if ((m = s.match(SWAP))) {
      if (out.line === undefined) out.unknown.push(s);
      else {
        const a = out.line.order.indexOf(m[1]!);
        const b = out.line.order.indexOf(m[2]!);
        if (a < 0 || b < 0) out.unknown.push(s);
        else [out.line.order[a], out.line.order[b]] = [m[2]!, m[1]!];
      }
    } else if ((m = s.match(ADD))) ops.push(["add", m[1]!]);
    else if ((m = s.match(REMOVE))) ops.push(["remove", m[1]!]);
    else out.unknown.push(s);
  }
  if (ops.length > 0) {
    const set = new Set(out.declared);
    for (const [op, label] of ops) op === "add" ? set.add(label) : set.delete(label);
    out.afterOps = set;
  }
  return out;
}
