/**
 * The model-level postprocessors: `general_torch` (pass-through) and the two loglikelihood scorers.
 * Their input is a batch: per instance, per option, the log-probabilities of the tokens.
 */

/** Python's `sum()` over floats: plain left-to-right addition from 0. */
function pySum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** `general_torch_ppl`: per option, the negated sum of its token log-probabilities. */
export function generalTorchPpl(batch: readonly (readonly (readonly number[])[])[]): number[][] {
  return batch.map((options) => options.map((tokens) => -pySum(tokens)));
}

/**
 * `general_torch_ppl_norm` for one instance: drop the longest leading run of positions whose values are
 * identical in every option (compared up to the shortest option), then the negated mean of the rest.
 * Where an option lies wholly inside that run upstream divides by zero; here its score is NaN, which
 * `ultraeval:log_prob` ranks last.
 */
export function pplNormScores(options: readonly (readonly number[])[]): number[] {
  const shortest = options.length === 0 ? 0 : Math.min(...options.map((o) => o.length));
  let shared = 0;
  while (shared < shortest) {
    const first = options[0]![shared];
    if (!options.every((o) => o[shared] === first)) break;
    shared++;
  }
  return options.map((tokens) => {
    const rest = tokens.slice(shared);
    return rest.length === 0 ? Number.NaN : -(pySum(rest) / rest.length);
  });
}

/** `general_torch_ppl_norm` over a batch. */
export function generalTorchPplNorm(batch: readonly (readonly (readonly number[])[])[]): number[][] {
  return batch.map(pplNormScores);
}
