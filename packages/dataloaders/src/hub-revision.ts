/**
 * The Hub API questions the Hub loaders ask: which commit a revision is (`GET
 * /api/datasets/<repo>/revision/<rev>`, huggingface_hub's `dataset_info`), and which files a folder
 * of the repo holds at a commit (`GET /api/datasets/<repo>/tree/<commit>/<dir>`, following the
 * `Link: <...>; rel="next"` pages the Hub splits long listings into). Errors are `DataLoadError`s
 * made by the caller's `fail`, saying what to do (a token, the dataset id, the revision).
 */
import type { DataLoadError } from "@yardstick/core";
import { z } from "zod";
import { type HubClient, HubRequestFailed, summariseBody } from "./huggingface-client.js";
import { encodeRepoPath } from "./hub-download.js";

export const COMMIT_SHA = /^[0-9a-f]{40}$/;

const datasetInfoSchema = z.looseObject({ sha: z.string().regex(COMMIT_SHA, "expected a 40-character commit sha") });

export interface HubQuestion {
  client: HubClient;
  /** The endpoint, for messages. */
  hub: string;
  repo: string;
  /** Whether a token is sent (the 401/404 advice differs). */
  hasToken: boolean;
  signal?: AbortSignal;
  fail(message: string, cause?: unknown): DataLoadError;
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The advice for a 401/403/404 about the repo itself (not a revision or a path). */
function repoRefusal(q: HubQuestion, status: number, text: string): DataLoadError {
  if (status === 403) return q.fail(`access denied by the Hub (403${summariseBody(text)}): accept the dataset's conditions on huggingface.co with the token's account`);
  return q.fail(
    q.hasToken
      ? `the Hub does not show this dataset to the current token (${status}${summariseBody(text)}): it does not exist, or HF_TOKEN cannot read it; check the dataset id and the token`
      : `the Hub does not show this dataset without a token (${status}${summariseBody(text)}): it is private or gated, or does not exist; set HF_TOKEN to a token that can read it, and check the dataset id`,
  );
}

async function get(q: HubQuestion, what: string, pathAndQuery: string): Promise<Awaited<ReturnType<HubClient["get"]>>> {
  try {
    return await q.client.get(pathAndQuery, q.signal);
  } catch (e) {
    if (e instanceof HubRequestFailed) throw q.fail(`could not ask the Hugging Face Hub at ${q.hub} ${what}, after ${e.attempts} attempt(s) (last: ${e.message})`, e);
    throw e;
  }
}

function parseJson(q: HubQuestion, what: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw q.fail(`malformed JSON in the Hub API's ${what} from ${q.hub}: ${(e as Error).message}`, e);
  }
}

/** The commit sha `revision` points to. */
export async function askRevisionCommit(q: HubQuestion & { revision: string }): Promise<string> {
  const res = await get(q, `which commit revision "${q.revision}" is`, `/api/datasets/${q.repo}/revision/${encodeURIComponent(q.revision)}`);
  const code = header(res.headers["x-error-code"]);
  if (res.status === 404 && code === "RevisionNotFound") throw q.fail(`revision "${q.revision}" not found on the Hub${summariseBody(res.text)}`);
  if (res.status === 401 || res.status === 403 || res.status === 404) throw repoRefusal(q, res.status, res.text);
  if (res.status !== 200) throw q.fail(`the Hub API at ${q.hub} answered ${res.status} for the dataset info${summariseBody(res.text)}`);
  const info = datasetInfoSchema.safeParse(parseJson(q, "dataset info", res.text));
  if (!info.success) throw q.fail(`unexpected dataset info from the Hub API at ${q.hub}: sha: ${info.error.issues[0]!.message}`);
  return info.data.sha;
}

const treeEntrySchema = z.looseObject({
  type: z.enum(["file", "directory"]),
  path: z.string(),
  size: z.number().nonnegative(),
  oid: z.string().optional(),
  lfs: z.looseObject({ oid: z.string(), size: z.number().nonnegative() }).optional(),
});
export type RepoTreeEntry = z.output<typeof treeEntrySchema>;

/** The `rel="next"` URL of a `Link` header, as a path (with query) under the endpoint. */
function nextPage(link: string | undefined, hub: string): string | undefined {
  const m = link === undefined ? null : /<([^>]+)>\s*;\s*rel="?next"?/.exec(link);
  if (!m) return undefined;
  const url = new URL(m[1]!, hub);
  const prefix = new URL(hub).pathname.replace(/\/+$/, "");
  const p = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
  return `${p}${url.search}`;
}

/** The entries of one folder of the repo at `commit` ("" = the top); undefined when the folder does not exist. */
export async function listRepoFolder(q: HubQuestion & { commit: string; dir: string }): Promise<RepoTreeEntry[] | undefined> {
  const what = `the file list of ${q.dir || "the repository's top folder"}`;
  let next: string | undefined = `/api/datasets/${q.repo}/tree/${q.commit}${q.dir ? `/${encodeRepoPath(q.dir)}` : ""}`;
  const out: RepoTreeEntry[] = [];
  while (next !== undefined) {
    const res = await get(q, `for ${what}`, next);
    const code = header(res.headers["x-error-code"]);
    if (res.status === 404 && code === "EntryNotFound") return undefined;
    if (res.status === 404 && code === "RevisionNotFound") throw q.fail(`commit ${q.commit} not found on the Hub${summariseBody(res.text)}`);
    if (res.status === 401 || res.status === 403 || res.status === 404) throw repoRefusal(q, res.status, res.text);
    if (res.status !== 200) throw q.fail(`the Hub answered ${res.status} for ${what}${summariseBody(res.text)}`);
    const page = z.array(treeEntrySchema).safeParse(parseJson(q, what, res.text));
    if (!page.success) throw q.fail(`unexpected file list from the Hub's tree API at ${q.hub}: ${page.error.issues[0]!.message}`);
    out.push(...page.data);
    next = nextPage(header(res.headers.link), q.hub);
  }
  return out;
}
