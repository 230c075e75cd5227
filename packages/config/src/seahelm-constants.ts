/** Reads SEA-HELM's `constants.yaml` (few-shot defaults, base-model stop tokens, skip lists). */
import { readFile } from "node:fs/promises";
import { ConfigError } from "@yardstick/core";
import { type SeaHelmConstants, seaHelmConstantsSchema } from "./seahelm-schema.js";
import { nodeAtPath, nodePosition, parseYamlSource } from "./yaml-source.js";
import { issueToConfigError } from "./zod-issues.js";

export async function loadSeaHelmConstants(file: string): Promise<SeaHelmConstants> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new ConfigError(`cannot read constants file: ${(e as Error).message}`, { file });
  }
  const source = parseYamlSource(file, text);
  const parsed = seaHelmConstantsSchema.safeParse(source.doc.toJS() ?? {});
  if (!parsed.success) {
    throw issueToConfigError(parsed.error.issues[0]!, [], (p) => nodePosition(source, nodeAtPath(source, p).node));
  }
  return parsed.data;
}
