/**
 * For `yardstick ls` and `validate`: where the tasks whose dataloader reads Hub repository files
 * (SEA-HELM's HealthBench and AA-LCR) would get them, told from the Hugging Face cache alone — no
 * request is made, so "download" means "downloads on first run", not that the Hub will answer.
 */
import { ConfigError, type Registry, type TaskSpec } from "@yardstick/core";
import type { HubDataStatus, HubFilesDataloader } from "@yardstick/dataloaders";
import type { LsRow } from "./ls-command.js";
import type { UnrunnableTask } from "./tasks.js";

/** Each task whose dataloader can say (`hubDataStatus`), with what it says. */
export async function hubDataStatuses(tasks: readonly TaskSpec[], registry: Registry, baseDir: string): Promise<Map<TaskSpec, HubDataStatus>> {
  const out = new Map<TaskSpec, HubDataStatus>();
  for (const t of tasks) {
    if (!registry.has("dataloaders", t.data.id)) continue;
    const loader = registry.get("dataloaders", t.data.id) as Partial<HubFilesDataloader>;
    if (typeof loader.hubDataStatus !== "function") continue;
    try {
      out.set(t, await loader.hubDataStatus(t.data.options ?? {}, { baseDir }));
    } catch {
      // Bad options: reported as such by the runnability check.
    }
  }
  return out;
}

const unavailableReason = (s: HubDataStatus): string =>
  `reads the Hub dataset ${s.repo} (revision ${s.revision}), which is not in the Hugging Face cache, and HF_HUB_OFFLINE forbids downloading it`;

/** The tasks that cannot get their files here (not cached, offline), as runnability problems. */
export function hubDataUnrunnable(statuses: ReadonlyMap<TaskSpec, HubDataStatus>): UnrunnableTask[] {
  return [...statuses]
    .filter(([, s]) => s.state === "unavailable")
    .map(([task, s]) => {
      const reason = unavailableReason(s);
      const file = task.source?.file;
      return { task, code: "data-not-cached", reason, error: new ConfigError(`task ${task.key} ${reason}`, file ? { file } : {}) };
    });
}

/** `downloads <repo> on first run (<task keys>)`, one line per repo. */
export function hubDownloadNotes(statuses: ReadonlyMap<TaskSpec, HubDataStatus>): string[] {
  const byRepo = new Map<string, string[]>();
  for (const [task, s] of statuses) if (s.state === "download") byRepo.set(s.repo, [...(byRepo.get(s.repo) ?? []), task.key]);
  return [...byRepo].map(([repo, keys]) => `downloads ${repo} on first run (${keys.join(", ")})`);
}

/** `yardstick ls` rows: the data column names the Hub dataset and says when it downloads; a task that cannot get it does not run here. */
export function annotateHubData(rows: LsRow[], tasks: readonly TaskSpec[], statuses: ReadonlyMap<TaskSpec, HubDataStatus>): void {
  tasks.forEach((task, i) => {
    const s = statuses.get(task);
    const row = rows[i];
    if (s === undefined || row === undefined || s.state === "local") return;
    row.data = `hf:${s.repo}${s.state === "download" ? " (downloads on first run)" : s.state === "unavailable" ? " (not cached, offline)" : ""}`;
    if (s.state === "unavailable") {
      row.reasons.push({ code: "data-not-cached", message: unavailableReason(s) });
      row.runsHere = false;
    }
  });
}
