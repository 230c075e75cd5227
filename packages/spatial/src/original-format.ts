import { DataLoadError } from "@yardstick/core";
import { z } from "zod";
import { COLORS, SHAPE_KINDS, SIZES } from "./constants.js";
import { shapeFromJson, type Shape } from "./shape.js";

const shapeJsonSchema = z.object({
  shape: z.enum(SHAPE_KINDS),
  color: z.enum(COLORS),
  size: z.enum(SIZES),
  center: z.tuple([z.number().int(), z.number().int()]),
});

const qaSchema = z.tuple([z.string(), z.union([z.string(), z.number()])]);

/** An original data file; only `canvas` is required (descriptions and questions may be absent). */
export const originalFileSchema = z.object({
  canvas: z.array(shapeJsonSchema).min(1),
  descriptions: z.record(z.string(), z.string()).optional(),
  questions: z.record(z.string(), z.array(qaSchema)).optional(),
});
export type OriginalFile = z.infer<typeof originalFileSchema>;

/** Parses and validates the text of an original-format file; errors name the file and the field. */
export function parseOriginalFile(text: string, file: string): OriginalFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new DataLoadError(`not valid JSON: ${(err as Error).message}`, { file, cause: err });
  }
  const parsed = originalFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
    throw new DataLoadError(
      `malformed canvas file at ${path === "" ? "(root)" : path.replace(/^\./, "")}: ${issue.message} ` +
        '(expected {"canvas": [{"shape", "color", "size", "center": [x, y]}, ...]})',
      { file },
    );
  }
  return parsed.data;
}

export function canvasShapes(file: OriginalFile): Shape[] {
  return file.canvas.map((s) => shapeFromJson({ ...s, center: [s.center[0], s.center[1]] }));
}

// Writing original files needs no zod: the writer lives in original-json.ts (loaded by worker threads).
export { generatedJsonText, originalJsonText, toOriginalJson } from "./original-json.js";
