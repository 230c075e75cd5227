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

/** The image type of `bytes` from its leading magic number, or undefined when it is none we know. */
export function sniffImageMime(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]): boolean => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x42, 0x4d)) return "image/bmp";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  return undefined;
}

/** Whether a parquet cell is a `datasets` Image struct (`{ bytes, path }`, either may be null). */
export function isImageStruct(value: unknown): value is { bytes: Uint8Array | null; path: string | null } {
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Uint8Array) return false;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !keys.includes("bytes") || !keys.includes("path")) return false;
  const { bytes, path: p } = value as { bytes: unknown; path: unknown };
  return (bytes === null || bytes instanceof Uint8Array) && (p === null || typeof p === "string");
}

/**
 * A `datasets` Image struct as a URI for an `image_url` part: its bytes inlined as a data URI (the
 * type sniffed from the bytes, else from the path's extension, else JPEG as SEA-HELM labels every
 * image), or its path when that is already a URL. A struct with neither is an error.
 */
export function imageStructToUri(value: { bytes: Uint8Array | null; path: string | null }, where: ImageWhere & { column: string }): string {
  if (value.bytes && value.bytes.length > 0) {
    const ext = value.path ? path.extname(value.path).toLowerCase() : "";
    const mime = sniffImageMime(value.bytes) ?? MIME_BY_EXTENSION[ext] ?? "image/jpeg";
    return `data:${mime};base64,${Buffer.from(value.bytes.buffer, value.bytes.byteOffset, value.bytes.byteLength).toString("base64")}`;
  }
  if (value.path && /^(https?:\/\/|data:)/.test(value.path)) return value.path;
  throw new DataLoadError(
    `column "${where.column}": the image has no bytes${value.path ? ` and its path "${value.path}" is not a URL (a file on the machine that built the dataset)` : " and no path"}`,
    where,
  );
}
