import { readFileSync } from "node:fs";

/** Reads a JSON fixture from this folder (test-only helper; excluded from the build). */
export function loadFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), "utf8")) as T;
}
