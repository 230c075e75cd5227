/** Shared by the Hub dataloaders' test files: Hub stand-ins and temp folders closed after each test, loading helpers. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { DataLoadError, type Sample } from "@yardstick/core";
import { type HubServer, type HubServerOptions, startHubServer } from "@yardstick/testing";
import { afterEach } from "vitest";
import { type HuggingFaceDataloaderSettings, loadHuggingFace } from "./huggingface.js";

/** Quick retries, so fault tests stay fast. */
export const FAST: HuggingFaceDataloaderSettings = { backoffBaseMs: 1, backoffMaxMs: 5, retries: 3 };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A Hub stand-in closed after the test. */
export async function hub(options: HubServerOptions): Promise<HubServer> {
  const s = await startHubServer(options);
  cleanups.push(() => s.close());
  return s;
}

/** A temporary folder removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "yardstick-hf-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `collect` (every Sample of a load) and `loadError` (the DataLoadError it ends with), with `defaults` under each load's options. */
export function loaders(defaults: Record<string, unknown> = {}) {
  const collect = async (options: Record<string, unknown>, settings: HuggingFaceDataloaderSettings = FAST): Promise<Sample[]> => {
    const out: Sample[] = [];
    for await (const s of loadHuggingFace({ ...defaults, ...options }, {}, settings)) out.push(s);
    return out;
  };
  const loadError = (options: Record<string, unknown>, settings: HuggingFaceDataloaderSettings = FAST): Promise<DataLoadError> =>
    loadErrorOf(() => collect(options, settings));
  return { collect, loadError };
}

/** The DataLoadError `run` ends with; any other ending fails the test. */
export async function loadErrorOf(run: () => Promise<unknown>): Promise<DataLoadError> {
  try {
    await run();
  } catch (e) {
    if (DataLoadError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("expected a DataLoadError");
}
