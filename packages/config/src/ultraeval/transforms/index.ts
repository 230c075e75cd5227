/**
 * TypeScript ports of UltraEval's transforms, keyed by the path configs give in `transform`
 * (relative to the UltraEval root). A path not listed here has no port. Gold answers that upstream
 * normalises with a postprocess go through the injected `postprocess` (the composition root passes
 * the `ultraeval:*` postprocessors), so this package does not import another plugin package.
 */
import { agievalGen, agievalPpl } from "./agieval.js";
import { bbhCotGen } from "./bbh-cot.js";
import { c3Gen, c3Ppl } from "./c3.js";
import {
  afqmcGen,
  afqmcPpl,
  bustmGen,
  bustmPpl,
  cbGen,
  cbPpl,
  cluewscGen,
  cluewscPpl,
  entailmentYesNoGen,
  eprstmtGen,
  eprstmtPpl,
  ocnliFcGen,
  ocnliFcPpl,
  ocnliGen,
  ocnliPpl,
  rtePpl,
  tnewsGen,
  tnewsPpl,
  wicGen,
  wicPpl,
  wscGen,
  wscPpl,
} from "./clue-glue.js";
import {
  commonsenseqaGen,
  commonsenseqaPpl,
  copaGen,
  copaPpl,
  openbookqaGen,
  openbookqaPpl,
  piqaGen,
  piqaPpl,
  siqaGen,
  siqaPpl,
  storyclozeGen,
  storyclozePpl,
  winograndeGen,
  wmt20EnZhGen,
} from "./classic.js";
import {
  chineseExamGen,
  chineseExamPpl,
  englishExamGen,
  englishExamPpl,
  multircGen,
  multircPpl,
  strategyqaGen,
  strategyqaPpl,
} from "./exam.js";
import {
  chidGen,
  chidPpl,
  drcdGen,
  floresGen,
  lambadaGen,
  nqOpenGen,
  quacGen,
  recordGen,
  squadGen,
} from "./reading.js";
import { gaokaobenchGen } from "./gaokaobench.js";
import { boolqGen, boolqPpl, mbppGen, truthfulqaPpl, tydiqaGen, winograndePpl, wmt20ZhEnGen } from "./more.js";
import { raceGen, racePpl } from "./race.js";
import { summeditsGen, summeditsPpl } from "./summedits.js";
import { triviaqaGen } from "./triviaqa.js";
import { winogenderGen, winogenderPpl } from "./winogender.js";
import { CHINESE_WORDING, ENGLISH_WORDING, lettered, optionLines } from "./multiple-choice.js";
import {
  correctIndex,
  correctOption,
  letter,
  passagePair,
  text,
  type UltraEvalGoldPostprocess,
  type UltraEvalTransform,
  type UltraEvalTransformSettings,
  type UltraEvalTransforms,
} from "./types.js";

export * from "./types.js";

const mcEnglish: UltraEvalTransform = (r) => lettered(r, ENGLISH_WORDING);

/** bbh: four tasks are free-form (gold through exact_match_post); the rest are lettered choices. */
const BBH_FREE_FORM = new Set(["dyck_languages", "object_counting", "multistep_arithmetic_two", "word_sorting"]);
function bbh(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r, ctx) => {
    const task = (ctx.taskName.split("_")[1] ?? "").replaceAll("-", "_");
    if (!BBH_FREE_FORM.has(task)) return lettered(r, ENGLISH_WORDING);
    const answer = text(r, "answer");
    // Upstream keeps the postprocess result in a list of one.
    return { input: `Question:\n${text(r, "question")}\nAnswer:\n`, output: answer, processedOutput: [post("exact_match_post", answer)] };
  };
}

function gsm8k(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => {
    const answer = text(r, "answer");
    return { input: `Question: ${text(r, "question")}\nAnswer: `, output: answer, processedOutput: [post("gsm8k_post", answer)] };
  };
}

/** The text inside the last `\boxed{...}` (or `\fbox{...}`), braces balanced; null when there is none. */
export function lastBoxedContent(s: string): string | null {
  let start = s.lastIndexOf("\\boxed");
  if (start < 0) start = s.lastIndexOf("\\fbox");
  if (start < 0) return null;
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    if (s[i] === "{") depth++;
    else if (s[i] === "}") {
      depth--;
      if (depth === 0) {
        const boxed = s.slice(start, i + 1);
        const left = "\\boxed{";
        return boxed.startsWith(left) && boxed.endsWith("}") ? boxed.slice(left.length, -1) : null;
      }
    }
  }
  return null;
}

function math(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => {
    const answer = text(r, "answer");
    // Upstream hands None to MathPost when there is no box, which fails there; a missing box gives "".
    const gold = post("math_post", lastBoxedContent(answer) ?? "");
    return {
      input: `Problem: ${text(r, "question")}\nSolution: `,
      output: `${answer}\nFinal Answer: The final answer is $${gold}$. I hope it is correct.`,
      processedOutput: [gold],
    };
  };
}

const hellaswagGen: UltraEvalTransform = (r) => {
  const head = `Context:\n${text(r, "question")}\nQuestion:\nWhich ending makes the most sense?\n`;
  const gold = `(${letter(correctIndex(r))})`;
  return { input: `${head}${ENGLISH_WORDING.requirement}${ENGLISH_WORDING.options}${optionLines(r)}${ENGLISH_WORDING.answer}`, output: gold, processedOutput: gold };
};

const hellaswagPpl: UltraEvalTransform = (r) => {
  const gold = correctOption(r).trim();
  return { input: `${text(r, "activity_label")}: ${text(r, "question")} `, output: gold, processedOutput: gold };
};

const humaneval: UltraEvalTransform = (r) => ({ input: text(r, "prompt").trim(), output: "", processedOutput: "" });

const axbPpl: UltraEvalTransform = (r) => {
  const [first, second] = passagePair(r);
  const gold = correctOption(r).trim();
  return { input: `${first}\n${second}\nIs the sentence below entailed by the sentence above?\n`, output: gold, processedOutput: gold };
};

/** ax-b gen: the two sentences, the entailment question, options `A. Yes` / `B. No`, gold letter. */
const axbGen: UltraEvalTransform = (r) => {
  const [first, second] = passagePair(r);
  const options = r.targetScores.map(([option], i) => `${letter(i)}. ${option}\n`).join("");
  const gold = letter(correctIndex(r));
  return { input: `${first}\n${second}\nIs the sentence below entailed by the sentence above?\n${options}Answer: `, output: gold, processedOutput: gold };
};

/** The config paths (relative to the UltraEval root) that have a TypeScript port. */
export const ULTRAEVAL_PORTED_TRANSFORMS = [
  "datasets/mmlu/transform_gen_v1.py",
  "datasets/cmmlu/transform_gen_v1.py",
  "datasets/bbh/transform_gen_v0.py",
  "datasets/gsm8k/transform_gen_v0.py",
  "datasets/math/transform_gen_v0.py",
  "datasets/hellaswag/transform_gen_v1.py",
  "datasets/hellaswag/transform_ppl_v1.py",
  "datasets/humaneval/transform_gen_v0.py",
  "datasets/ax-b/transform_gen_v0.py",
  "datasets/boolq/transform_gen_v1.py",
  "datasets/boolq/transform_ppl_v0.py",
  "datasets/truthfulqa/transform_ppl_v0.py",
  "datasets/winogrande/transform_ppl_v0.py",
  "datasets/tydiqa/transform_gen_v0.py",
  "datasets/mbpp/transform_gen_v0.py",
  "datasets/wmt20-zh-en/transform_gen_v0.py",
  "datasets/ax-b/transform_ppl_v0.py",
  "datasets/agieval/transform_gen_v0.py",
  "datasets/agieval/transform_ppl_v0.py",
  "datasets/bbh-cot/transform_gen_cot.py",
  "datasets/gaokaobench/transform_gen_v0.py",
  "datasets/summedits/transform_gen_v0.py",
  "datasets/summedits/transform_ppl_v0.py",
  "datasets/winogender/transform_gen_v0.py",
  "datasets/winogender/transform_ppl_v0.py",
  "datasets/race/transform_gen_v0.py",
  "datasets/race/transform_ppl_v0.py",
  "datasets/triviaqa/transform_gen_v0.py",
  "datasets/c3/transform_gen_v0.py",
  "datasets/c3/transform_ppl_v0.py",
  "datasets/winogrande/transform_gen_v1.py",
  "datasets/wmt20-en-zh/transform_gen_v0.py",
  "datasets/piqa/transform_gen_v1.py",
  "datasets/piqa/transform_ppl_v0.py",
  "datasets/openbookqa/transform_gen_v0.py",
  "datasets/openbookqa/transform_ppl_v0.py",
  "datasets/commonsenseqa/transform_gen_v0.py",
  "datasets/commonsenseqa/transform_ppl_v0.py",
  "datasets/siqa/transform_gen_v0.py",
  "datasets/siqa/transform_ppl_v0.py",
  "datasets/copa/transform_gen_v0.py",
  "datasets/copa/transform_ppl_v0.py",
  "datasets/storycloze/transform_gen_v0.py",
  "datasets/storycloze/transform_ppl_v0.py",
  "datasets/afqmc/transform_gen_v0.py",
  "datasets/afqmc/transform_ppl_v0.py",
  "datasets/tnews/transform_gen_v0.py",
  "datasets/tnews/transform_ppl_v0.py",
  "datasets/eprstmt/transform_gen_v0.py",
  "datasets/eprstmt/transform_ppl_v0.py",
  "datasets/bustm/transform_gen_v0.py",
  "datasets/bustm/transform_ppl_v0.py",
  "datasets/ocnli/transform_gen_v0.py",
  "datasets/ocnli/transform_ppl_v0.py",
  "datasets/ocnli-fc/transform_gen_v0.py",
  "datasets/ocnli-fc/transform_ppl_v0.py",
  "datasets/cluewsc/transform_gen_v0.py",
  "datasets/cluewsc/transform_ppl_v0.py",
  "datasets/cb/transform_gen_v0.py",
  "datasets/cb/transform_ppl_v0.py",
  "datasets/ax-g/transform_gen_v0.py",
  "datasets/ax-g/transform_ppl_v0.py",
  "datasets/rte/transform_gen_v0.py",
  "datasets/rte/transform_ppl_v0.py",
  "datasets/wic/transform_gen_v0.py",
  "datasets/wic/transform_ppl_v0.py",
  "datasets/wsc/transform_gen_v0.py",
  "datasets/wsc/transform_ppl_v0.py",
  "datasets/medqa-usmle/transform_gen_v0.py",
  "datasets/medqa-usmle/transform_ppl_v0.py",
  "datasets/medmcqa/transform_ppl_v0.py",
  "datasets/medqa-mcmle/transform_ppl_v0.py",
  "datasets/jecqa/transform_gen_v0.py",
  "datasets/jecqa/transform_ppl_v0.py",
  "datasets/strategyqa/transform_gen_v0.py",
  "datasets/strategyqa/transform_ppl_v0.py",
  "datasets/multirc/transform_gen_v0.py",
  "datasets/multirc/transform_ppl_v0.py",
  "datasets/drcd/transform_gen_v0.py",
  "datasets/record/transform_gen_v0.py",
  "datasets/squad/transform_gen_v0.py",
  "datasets/quac/transform_gen_v0.py",
  "datasets/lambada/transform_gen_v0.py",
  "datasets/flores/transform_gen_v0.py",
  "datasets/chid/transform_gen_v0.py",
  "datasets/chid/transform_ppl_v0.py",
  "datasets/nq-open/transform_gen_v0.py",
] as const;

export type UltraEvalPortedTransform = (typeof ULTRAEVAL_PORTED_TRANSFORMS)[number];

/** The ported transforms, with gold answers normalised by `settings.postprocess`. */
export function createUltraEvalTransforms(settings: UltraEvalTransformSettings): UltraEvalTransforms {
  const post = settings.postprocess;
  // Typed by the path list, so a port cannot be missing from the table or the table from the list.
  const table: Record<UltraEvalPortedTransform, UltraEvalTransform> = {
    "datasets/mmlu/transform_gen_v1.py": mcEnglish,
    "datasets/cmmlu/transform_gen_v1.py": (r) => lettered(r, CHINESE_WORDING),
    "datasets/bbh/transform_gen_v0.py": bbh(post),
    "datasets/gsm8k/transform_gen_v0.py": gsm8k(post),
    "datasets/math/transform_gen_v0.py": math(post),
    "datasets/hellaswag/transform_gen_v1.py": hellaswagGen,
    "datasets/hellaswag/transform_ppl_v1.py": hellaswagPpl,
    "datasets/humaneval/transform_gen_v0.py": humaneval,
    "datasets/ax-b/transform_gen_v0.py": axbGen,
    "datasets/boolq/transform_gen_v1.py": boolqGen,
    "datasets/boolq/transform_ppl_v0.py": boolqPpl,
    "datasets/truthfulqa/transform_ppl_v0.py": truthfulqaPpl,
    "datasets/winogrande/transform_ppl_v0.py": winograndePpl,
    "datasets/tydiqa/transform_gen_v0.py": tydiqaGen(post),
    "datasets/mbpp/transform_gen_v0.py": mbppGen,
    "datasets/wmt20-zh-en/transform_gen_v0.py": wmt20ZhEnGen,
    "datasets/ax-b/transform_ppl_v0.py": axbPpl,
    "datasets/agieval/transform_gen_v0.py": agievalGen(post),
    "datasets/agieval/transform_ppl_v0.py": agievalPpl,
    "datasets/bbh-cot/transform_gen_cot.py": bbhCotGen,
    "datasets/gaokaobench/transform_gen_v0.py": gaokaobenchGen,
    "datasets/summedits/transform_gen_v0.py": summeditsGen,
    "datasets/summedits/transform_ppl_v0.py": summeditsPpl,
    "datasets/winogender/transform_gen_v0.py": winogenderGen,
    "datasets/winogender/transform_ppl_v0.py": winogenderPpl,
    "datasets/race/transform_gen_v0.py": raceGen,
    "datasets/race/transform_ppl_v0.py": racePpl,
    "datasets/triviaqa/transform_gen_v0.py": triviaqaGen(post),
    "datasets/c3/transform_gen_v0.py": c3Gen,
    "datasets/c3/transform_ppl_v0.py": c3Ppl,
    "datasets/winogrande/transform_gen_v1.py": winograndeGen,
    "datasets/wmt20-en-zh/transform_gen_v0.py": wmt20EnZhGen,
    "datasets/piqa/transform_gen_v1.py": piqaGen,
    "datasets/piqa/transform_ppl_v0.py": piqaPpl,
    "datasets/openbookqa/transform_gen_v0.py": openbookqaGen,
    "datasets/openbookqa/transform_ppl_v0.py": openbookqaPpl,
    "datasets/commonsenseqa/transform_gen_v0.py": commonsenseqaGen,
    "datasets/commonsenseqa/transform_ppl_v0.py": commonsenseqaPpl,
    "datasets/siqa/transform_gen_v0.py": siqaGen,
    "datasets/siqa/transform_ppl_v0.py": siqaPpl,
    "datasets/copa/transform_gen_v0.py": copaGen,
    "datasets/copa/transform_ppl_v0.py": copaPpl,
    "datasets/storycloze/transform_gen_v0.py": storyclozeGen,
    "datasets/storycloze/transform_ppl_v0.py": storyclozePpl,
    "datasets/afqmc/transform_gen_v0.py": afqmcGen,
    "datasets/afqmc/transform_ppl_v0.py": afqmcPpl,
    "datasets/tnews/transform_gen_v0.py": tnewsGen,
    "datasets/tnews/transform_ppl_v0.py": tnewsPpl,
    "datasets/eprstmt/transform_gen_v0.py": eprstmtGen,
    "datasets/eprstmt/transform_ppl_v0.py": eprstmtPpl,
    "datasets/bustm/transform_gen_v0.py": bustmGen,
    "datasets/bustm/transform_ppl_v0.py": bustmPpl,
    "datasets/ocnli/transform_gen_v0.py": ocnliGen,
    "datasets/ocnli/transform_ppl_v0.py": ocnliPpl,
    "datasets/ocnli-fc/transform_gen_v0.py": ocnliFcGen,
    "datasets/ocnli-fc/transform_ppl_v0.py": ocnliFcPpl,
    "datasets/cluewsc/transform_gen_v0.py": cluewscGen,
    "datasets/cluewsc/transform_ppl_v0.py": cluewscPpl,
    "datasets/cb/transform_gen_v0.py": cbGen,
    "datasets/cb/transform_ppl_v0.py": cbPpl,
    "datasets/ax-g/transform_gen_v0.py": entailmentYesNoGen,
    "datasets/ax-g/transform_ppl_v0.py": axbPpl,
    "datasets/rte/transform_gen_v0.py": entailmentYesNoGen,
    "datasets/rte/transform_ppl_v0.py": rtePpl,
    "datasets/wic/transform_gen_v0.py": wicGen,
    "datasets/wic/transform_ppl_v0.py": wicPpl,
    "datasets/wsc/transform_gen_v0.py": wscGen,
    "datasets/wsc/transform_ppl_v0.py": wscPpl,
    "datasets/medqa-usmle/transform_gen_v0.py": englishExamGen,
    "datasets/medqa-usmle/transform_ppl_v0.py": englishExamPpl,
    "datasets/medmcqa/transform_ppl_v0.py": englishExamPpl,
    "datasets/medqa-mcmle/transform_ppl_v0.py": chineseExamPpl,
    "datasets/jecqa/transform_gen_v0.py": chineseExamGen,
    "datasets/jecqa/transform_ppl_v0.py": chineseExamPpl,
    "datasets/strategyqa/transform_gen_v0.py": strategyqaGen,
    "datasets/strategyqa/transform_ppl_v0.py": strategyqaPpl,
    "datasets/multirc/transform_gen_v0.py": multircGen,
    "datasets/multirc/transform_ppl_v0.py": multircPpl,
    "datasets/drcd/transform_gen_v0.py": drcdGen(post),
    "datasets/record/transform_gen_v0.py": recordGen(post),
    "datasets/squad/transform_gen_v0.py": squadGen(post),
    "datasets/quac/transform_gen_v0.py": quacGen(post),
    "datasets/lambada/transform_gen_v0.py": lambadaGen,
    "datasets/flores/transform_gen_v0.py": floresGen,
    "datasets/chid/transform_gen_v0.py": chidGen,
    "datasets/chid/transform_ppl_v0.py": chidPpl,
    "datasets/nq-open/transform_gen_v0.py": nqOpenGen(post),
  };
  return {
    ...(settings.bridge ? { bridge: settings.bridge } : {}),
    get(transformPath) {
      const key = normaliseTransformPath(transformPath);
      return PORTED.has(key) ? table[key as UltraEvalPortedTransform] : undefined;
    },
  };
}

/** A config's `transform` with `./` and backslashes normalised, as the registry keys it. */
export function normaliseTransformPath(p: string): string {
  return p.replaceAll("\\", "/").replace(/^\.\//, "");
}

const PORTED: ReadonlySet<string> = new Set(ULTRAEVAL_PORTED_TRANSFORMS);

export function isPortedTransform(p: string): boolean {
  return PORTED.has(normaliseTransformPath(p));
}
