/**
 * Reads chosen files out of a zip archive with `yauzl` (streaming from the file: the archive is
 * never held in memory, and files not asked for are never inflated). Names are decoded as UTF-8
 * whatever the entry's flags say, as SEA-HELM opens the AA-LCR archive (`metadata_encoding="utf-8"`);
 * nothing is written to disk, so a name is only a key.
 */
import { DataLoadError } from "@yardstick/core";
import yauzl from "yauzl";

/**
 * The contents of the entries `pick` names a key for (`undefined`: skip the entry). Directories
 * are skipped. A file that is not a readable zip is a `DataLoadError` naming it.
 */
export async function readZipEntries(file: string, pick: (name: string) => string | undefined, signal?: AbortSignal): Promise<Map<string, Buffer>> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, decodeStrings: false, autoClose: true });
  } catch (cause) {
    throw new DataLoadError(`cannot open the zip archive: ${(cause as Error).message}`, { file, cause });
  }
  const found = new Map<string, Buffer>();
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (cause: unknown) => reject(new DataLoadError(`cannot read the zip archive: ${(cause as Error).message}`, { file, cause }));
      zip.on("error", fail);
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        if (signal?.aborted) return reject(signal.reason);
        const name = entry.fileNameRaw.toString("utf8");
        const key = name.endsWith("/") ? undefined : pick(name);
        if (key === undefined) return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error) return fail(error);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", fail);
          stream.on("end", () => {
            found.set(key, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return found;
}
