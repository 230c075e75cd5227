/**
 * Row images: `image` (one) or `images` (list), each a data URI, an http(s) URL, or a file path
 * relative to the data file. Files are read and inlined as `data:<mime>;base64,...` so the prompt
 * builder can put them straight into `image_url` parts.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { DataLoadError } from "@yardstick/core";

const MIME_BY_EXTENSION: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".svg": "image/svg+xml",
};

const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+(;[\w.+-]+=[\w.+-]+)*(;base64)?,/;

export interface ImageWhere {
  file: string;
  line: number;
}

export async function toImageUri(value: unknown, where: ImageWhere): Promise<string> {
  if (typeof value !== "string" || value === "") {
    throw new DataLoadError("an image must be a non-empty string (data URI, URL or file path)", where);
  }
  if (value.startsWith("data:")) {
    if (!DATA_URI.test(value)) throw new DataLoadError(`malformed data URI: ${value.slice(0, 40)}...`, where);
    return value;
  }
  if (/^https?:\/\//.test(value)) return value;
  const file = path.resolve(path.dirname(where.file), value);
  const mime = MIME_BY_EXTENSION[path.extname(file).toLowerCase()];
  if (!mime) {
    throw new DataLoadError(`unsupported image type "${path.extname(file)}" for ${file}`, {
      ...where,
    });
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new DataLoadError(`image file not found: ${file}`, where);
  }
  return `data:${mime};base64,${bytes.toString("base64")}`;
}

/** Returns a copy of the row with `image` / `images` turned into URIs (or the row itself when it has none). */
export async function inlineRowImages(row: Record<string, unknown>, where: ImageWhere): Promise<Record<string, unknown>> {
  const hasImage = row.image !== undefined && row.image !== null;
  const hasImages = row.images !== undefined && row.images !== null;
  if (!hasImage && !hasImages) return row;
  const out = { ...row };
  if (hasImage) out.image = await toImageUri(row.image, where);
  if (hasImages) {
    if (!Array.isArray(row.images)) throw new DataLoadError("`images` must be a list", where);
    out.images = await Promise.all(row.images.map((v) => toImageUri(v, where)));
  }
  return out;
}
