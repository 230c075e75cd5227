import { SpatialGenerationError } from "../errors.js";
import { allCombinations } from "../sampling.js";
import { ending } from "../descriptions.js";
import { comboIndex, shapeLabel } from "../shape.js";
import { type QA, type SpatialTask, yesNoBalance } from "./types.js";

const ADD_PROBABILITY = 0.6667;

/** The question per combination index: upstream's trailing space kept in compat, not in fixed. */
const ASK: Record<"compat" | "fixed", readonly string[]> = {
  compat: allCombinations().map((c) => `Is there a ${shapeLabel(c)} in the canvas? `),
  fixed: allCombinations().map((c) => `Is there a ${shapeLabel(c)} in the canvas?`),
};
/** The operation sentences per combination index, without a trailing space. */
const ADDED = allCombinations().map((c) => `A ${shapeLabel(c)} is added to the canvas.`);
const REMOVED = allCombinations().map((c) => `The ${shapeLabel(c)} is removed from the canvas.`);

/** Removes the first occurrence of x (the arrays below hold distinct combination indices). */
function drop(items: number[], x: number): void {
  const at = items.indexOf(x);
  if (at >= 0) items.splice(at, 1);
}

/** The combination indices 0..23 in attribute order, the order of allCombinations(). */
const COMBO_INDICES = allCombinations().map(comboIndex);

/**
 * n add/remove operations after the described canvas, then "is X in the canvas?" questions.
 * Sets are kept as insertion-ordered arrays of combination indices (an addition appends, a removal
 * keeps the others' order, as upstream's order-preserving equivalent would), so
 * `random.choice(list(set))` becomes reproducible.
 */
export const existenceTrackingTask: SpatialTask = {
  name: "existence_tracking",
  selectExpected: yesNoBalance,
  generate(ctx, expected) {
    const { rng, mode } = ctx;
    const askTable = ASK[mode];
    const ask = (c: number): string => askTable[c]!;
    // A loop, not map: a packed array whether or not this is optimized (see shapeLabels).
    const inCanvas: number[] = [];
    for (const s of ctx.shapes) inCanvas.push(comboIndex(s));
    const notIn: number[] = [];
    // The shuffle's draws depend only on the length: the same as shuffling allCombinations().
    const choices = rng.shuffle(COMBO_INDICES.slice());
    let cursor = 0;
    // Upstream spins forever when every combination is on the canvas; here that is bounded.
    const advance = (): boolean => {
      for (let step = 0; step < choices.length; step++) {
        if (!inCanvas.includes(choices[cursor]!)) return true;
        cursor = (cursor + 1) % choices.length;
      }
      return false;
    };
    const remove = (): string => {
      const victim = rng.choice(inCanvas);
      drop(inCanvas, victim);
      notIn.push(victim);
      return REMOVED[victim]!;
    };

    // Sentences separated by one space; `ending` adds compat's trailing space.
    let text = "";
    const say = (sentence: string) => {
      text = text === "" ? sentence : `${text} ${sentence}`;
    };
    for (let step = 0; step < ctx.shapes.length; step++) {
      if (inCanvas.length === 1 || rng.random() < ADD_PROBABILITY) {
        if (!advance()) {
          if (mode === "fixed" && inCanvas.length > 1) {
            say(remove());
            continue;
          }
          throw new SpatialGenerationError(`${ctx.canvasName}: existence_tracking: every combination is already on the canvas, nothing can be added`);
        }
        const added = choices[cursor]!;
        say(ADDED[added]!);
        inCanvas.push(added);
        drop(notIn, added);
        cursor = (cursor + 1) % choices.length;
      } else {
        say(remove());
      }
    }

    const cursorShape = (): number => {
      if (!advance()) throw new SpatialGenerationError(`${ctx.canvasName}: existence_tracking: no shape is missing from the canvas`);
      return choices[cursor]!;
    };
    let missing: number;
    if (notIn.length > 0) missing = rng.choice(notIn);
    else if (advance()) missing = choices[cursor]!;
    else if (mode === "fixed" && inCanvas.length > 1) {
      // Every combination is on the canvas (possible from 12 shapes on): one more removal makes a
      // "No" question possible, where upstream (and compat) fail.
      say(remove());
      missing = rng.choice(notIn);
    } else {
      missing = cursorShape();
    }
    const existing = rng.choice(inCanvas);
    let qa: QA[] = [
      [ask(existing), "Yes"],
      [ask(missing), "No"],
    ];
    if (expected === undefined) rng.shuffle(qa);
    else if (expected === "No") qa = qa.reverse();

    if (rng.random() < 0.5) {
      drop(inCanvas, existing);
      qa.push([ask(rng.choice(inCanvas)), "Yes"]);
    } else if (notIn.length > 1) {
      drop(notIn, missing);
      qa.push([ask(rng.choice(notIn)), "No"]);
    } else if (mode === "compat") {
      // Upstream re-asks the cursor shape, which is often the question already asked.
      qa.push([ask(cursorShape()), "No"]);
    } else {
      // Fixed: the next absent combination that has not been asked yet.
      let pick: number | undefined;
      for (let step = 0; step < choices.length && pick === undefined; step++) {
        const c = choices[(cursor + step) % choices.length]!;
        if (!inCanvas.includes(c) && c !== missing) pick = c;
      }
      if (pick !== undefined) qa.push([ask(pick), "No"]);
      else {
        drop(inCanvas, existing);
        if (inCanvas.length > 0) qa.push([ask(rng.choice(inCanvas)), "Yes"]);
      }
    }
    return { questions: qa, description: ending(text, mode) };
  },
};
