/**
 * Data references for SEA-HELM tasks whose data is generated rather than read (`filepath: null`):
 * OneRuler's NIAH and CWE. The generators (`seahelm-niah`, `seahelm-cwe` of @yardstick/dataloaders)
 * take the task's generation keys, the unformatted prompt (its tokens come off the context budget) and
 * the resource files upstream keeps in the task's folder:
 * - NIAH: `books/<lang>/*.txt` (the haystack) and `vocab/100_noun_list_translated.tsv` (the keys);
 * - CWE: `vocab/<lang>_words.txt` (upstream takes English words from the `wonderwords` package; here
 *   an `en_words.txt` in the same folder holds them).
 * Each is looked for in the config's folder and then each folder above it, like local data files.
 */
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import type { PluginRef } from "@yardstick/core";
import { findLocalFile, type FileCheckCache } from "./resolve-data-path.js";
import { isLegacyPromptTemplate, type SeaHelmPromptTemplate } from "./seahelm-schema.js";

export interface GeneratedDataRef {
  ref: PluginRef;
  /** Resource files that are not there, relative to the config's folder (the run reports them). */
  missing: { role: string; filepath: string }[];
}

/** A folder holding at least one `.txt` file, found from the config's folder upwards. */
function findTextFolder(relative: string, configFile: string): string | undefined {
  let dir = path.dirname(path.resolve(configFile));
  for (;;) {
    const candidate = path.join(dir, relative);
    try {
      if (statSync(candidate).isDirectory() && readdirSync(candidate).some((n) => n.endsWith(".txt"))) return candidate;
    } catch {
      // not here; try the parent
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The prompt as upstream counts it: preamble then task template, placeholders unfilled. */
function promptText(template: SeaHelmPromptTemplate): string {
  return isLegacyPromptTemplate(template) ? template.template : template.preamble + template.task_template;
}

/** The generator's data reference for a `filepath: null` task, or undefined for a dataloader class with no generator. */
export function generatedDataRef(
  dataloaderClass: string | undefined,
  params: Record<string, unknown>,
  language: string,
  template: SeaHelmPromptTemplate,
  configFile: string,
  cache?: FileCheckCache,
): GeneratedDataRef | undefined {
  const missing: GeneratedDataRef["missing"] = [];
  const configDir = path.dirname(path.resolve(configFile));
  const file = (relative: string, role: string): string => {
    const found = findLocalFile(relative, configFile, cache);
    if (!found) missing.push({ role, filepath: relative });
    return found ?? path.join(configDir, relative);
  };
  const options = { ...params, language, prompt_text: promptText(template) };
  if (dataloaderClass === "NIAHDataloader") {
    const booksDir = path.join("books", language);
    const books = findTextFolder(booksDir, configFile);
    if (!books) missing.push({ role: "NIAH haystack (books)", filepath: path.join(booksDir, "*.txt") });
    const vocab = file(path.join("vocab", "100_noun_list_translated.tsv"), "NIAH noun list");
    return { ref: { id: "seahelm-niah", options: { ...options, books: books ?? path.join(configDir, booksDir), vocab } }, missing };
  }
  if (dataloaderClass === "CWEDataloader") {
    const words = file(path.join("vocab", `${language}_words.txt`), "CWE word list");
    return { ref: { id: "seahelm-cwe", options: { ...options, words } }, missing };
  }
  return undefined;
}
