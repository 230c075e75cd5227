/** Turns zod issues into ConfigErrors that point at the offending YAML node. */
import { ConfigError } from "@yardstick/core";
import type { z } from "zod";
import type { KeyPath, Position } from "./interpolate.js";

export function describeExpected(issue: z.core.$ZodIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected;
    case "invalid_value":
      return issue.values.map((v) => JSON.stringify(v)).join(" | ");
    case "too_small":
      return `${issue.origin === "array" ? "at least" : ">="} ${String(issue.minimum)}${issue.origin === "array" ? " items" : ""}`;
    case "too_big":
      return `<= ${String(issue.maximum)}`;
    case "unrecognized_keys":
      return "no other keys";
    default:
      return undefined;
  }
}

export function issueToConfigError(
  issue: z.core.$ZodIssue,
  prefix: KeyPath,
  locate: (path: KeyPath) => Position,
): ConfigError {
  const keyPath: KeyPath = [...prefix, ...issue.path.map((k) => (typeof k === "symbol" ? String(k) : k))];
  const expected = describeExpected(issue);
  const message = issue.code === "invalid_type" && issue.message.includes("received undefined") ? "required key is missing" : issue.message;
  return new ConfigError(message, { ...locate(keyPath), keyPath, ...(expected === undefined ? {} : { expected }) });
}
