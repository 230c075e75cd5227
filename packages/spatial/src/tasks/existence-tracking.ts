import { SpatialGenerationError } from "../errors.js";
import { allCombinations } from "../sampling.js";
import { ending } from "../descriptions.js";
import { comboIndex, type Shape, shapeLabel } from "../shape.js";
import { type QA, type SpatialTask, yesNoBalance } from "./types.js";

type Combo = Pick<Shape, "kind" | "color" | "size">;

const ADD_PROBABILITY = 0.6667;

/** The question per combination index: upstream's trailing space kept in compat, not in fixed. */
const ASK: Record<"compat" | "fixed", readonly string[]> = {
  compat: allCombinations().map((c) => `Is there a ${shapeLabel(c)} in the canvas? `),
  fixed: allCombinations().map((c) => `Is there a ${shapeLabel(c)} in the canvas?`),
};
/** The operation sentences per combination index, without a trailing space. */
const ADDED = allCombinations().map((c) => `A ${shapeLabel(c)} is added to the canvas.`);
const REMOVED = allCombinations().map((c) => `The ${shapeLabel(c)} is removed from the canvas.`);

/**
 * n add/remove operations after the described canvas, then "is X in the canvas?" questions.
 * Sets are kept as insertion-ordered maps (keyed by combination index), so `random.choice(list(set))`
 * becomes reproducible.
 */
export const existenceTrackingTask: SpatialTask = {
  name: "existence_tracking",
  selectExpected: yesNoBalance,
  generate(ctx, expected) {
    const { rng, mode } = ctx;
    const askTable = ASK[mode];
    const ask = (s: Combo): string => askTable[comboIndex(s)]!;
    const inCanvas = new Map<number, Combo>(ctx.shapes.map((s) => [comboIndex(s), s]));
    const notIn = new Map<number, Combo>();
    const choices = rng.shuffle(allCombinations());
    let cursor = 0;
    // Upstream spins forever when every combination is on the canvas; here that is bounded.
    const advance = (): boolean => {
      for (let step = 0; step < choices.length; step++) {
        if (!inCanvas.has(comboIndex(choices[cursor]!))) return true;
        cursor = (cursor + 1) % choices.length;
      }
      return false;
    };
    const remove = (): string => {
      const victim = rng.choice([...inCanvas.values()]);
      inCanvas.delete(comboIndex(victim));
      notIn.set(comboIndex(victim), victim);
      return REMOVED[comboIndex(victim)]!;
    };

    // Sentences separated by one space; `ending` adds compat's trailing space.
    let text = "";
    const say = (sentence: string) => {
      text = text === "" ? sentence : `${text} ${sentence}`;
    };
    for (let step = 0; step < ctx.shapes.length; step++) {
      if (inCanvas.size === 1 || rng.random() < ADD_PROBABILITY) {
        if (!advance()) {
          if (mode === "fixed" && inCanvas.size > 1) {
            say(remove());
            continue;
          }
          throw new SpatialGenerationError(`${ctx.canvasName}: existence_tracking: every combination is already on the canvas, nothing can be added`);
        }
        const added = choices[cursor]!;
        say(ADDED[comboIndex(added)]!);
        inCanvas.set(comboIndex(added), added);
        notIn.delete(comboIndex(added));
        cursor = (cursor + 1) % choices.length;
      } else {
        say(remove());
      }
    }

    const cursorShape = (): Combo => {
      if (!advance()) throw new SpatialGenerationError(`${ctx.canvasName}: existence_tracking: no shape is missing from the canvas`);
      return choices[cursor]!;
    };
    let missing: Combo;
    if (notIn.size > 0) missing = rng.choice([...notIn.values()]);
    else if (advance()) missing = choices[cursor]!;
    else if (mode === "fixed" && inCanvas.size > 1) {
      // Every combination is on the canvas (possible from 12 shapes on): one more removal makes a
      // "No" question possible, where upstream (and compat) fail.
      say(remove());
      missing = rng.choice([...notIn.values()]);
    } else {
      missing = cursorShape();
    }
    const existing = rng.choice([...inCanvas.values()]);
    let qa: QA[] = [
      [ask(existing), "Yes"],
      [ask(missing), "No"],
    ];
    if (expected === undefined) rng.shuffle(qa);
    else if (expected === "No") qa = qa.reverse();

    if (rng.random() < 0.5) {
      inCanvas.delete(comboIndex(existing));
      qa.push([ask(rng.choice([...inCanvas.values()])), "Yes"]);
    } else if (notIn.size > 1) {
      notIn.delete(comboIndex(missing));
      qa.push([ask(rng.choice([...notIn.values()])), "No"]);
    } else if (mode === "compat") {
      // Upstream re-asks the cursor shape, which is often the question already asked.
      qa.push([ask(cursorShape()), "No"]);
    } else {
      // Fixed: the next absent combination that has not been asked yet.
      const asked = comboIndex(missing);
      let pick: Combo | undefined;
      for (let step = 0; step < choices.length && pick === undefined; step++) {
        const c = choices[(cursor + step) % choices.length]!;
        if (!inCanvas.has(comboIndex(c)) && comboIndex(c) !== asked) pick = c;
      }
      if (pick !== undefined) qa.push([ask(pick), "No"]);
      else {
        inCanvas.delete(comboIndex(existing));
        if (inCanvas.size > 0) qa.push([ask(rng.choice([...inCanvas.values()])), "Yes"]);
      }
    }
    return { questions: qa, description: ending(text, mode) };
  },
};
