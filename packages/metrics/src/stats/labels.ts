import { statsError } from "./validate.js";

/** A category label given by a rater or coder. */
export type Label = string | number;

export function isLabel(v: unknown): v is Label {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

/**
 * The ordered list of categories for the given labels. An explicit `order` wins (and every label must
 * be in it); otherwise numbers sort numerically and strings by code unit. When `needsOrder` is set
 * (weighted / ordinal measures), string labels without an explicit order are refused because their
 * alphabetical order is rarely the intended scale.
 */
export function categoryDomain(
  fn: string,
  labels: Iterable<Label>,
  order: readonly Label[] | undefined,
  needsOrder: boolean,
): Map<Label, number> {
  const domain = new Map<Label, number>();
  if (order !== undefined) {
    if (!Array.isArray(order)) throw statsError(fn, "order must be an array of labels");
    order.forEach((v, i) => {
      if (!isLabel(v)) throw statsError(fn, `order[${i}] is ${String(v)} (expected a string or finite number)`);
      if (domain.has(v)) throw statsError(fn, `order lists ${JSON.stringify(v)} twice`);
      domain.set(v, i);
    });
    for (const v of labels) {
      if (!domain.has(v)) throw statsError(fn, `label ${JSON.stringify(v)} is not in the given order`);
    }
    return domain;
  }
  const unique = [...new Set(labels)];
  const hasString = unique.some((v) => typeof v === "string");
  if (needsOrder && hasString) {
    throw statsError(fn, "string labels on an ordered scale need an explicit `order` option");
  }
  // Mixed types sort numbers first, then strings, so the domain is deterministic.
  unique.sort((x, y) => {
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  unique.forEach((v, i) => {
    domain.set(v, i);
  });
  return domain;
}
