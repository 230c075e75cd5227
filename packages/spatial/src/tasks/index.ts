import type { TaskName } from "../constants.js";
import { coordinateTask } from "./coordinate.js";
import { countTask } from "./count.js";
import { existenceTask } from "./existence.js";
import { existenceTrackingTask } from "./existence-tracking.js";
import { shuffleTrackingTask } from "./shuffle-tracking.js";
import { transitivityTask } from "./transitivity.js";
import type { SpatialTask } from "./types.js";

/** In upstream's registration order, which is also the order RNG draws happen in. */
export const SPATIAL_TASKS: readonly SpatialTask[] = [
  existenceTask,
  countTask,
  transitivityTask,
  coordinateTask,
  existenceTrackingTask,
  shuffleTrackingTask,
];

export const TASKS_BY_NAME: Record<TaskName, SpatialTask> = Object.fromEntries(SPATIAL_TASKS.map((t) => [t.name, t])) as Record<
  TaskName,
  SpatialTask
>;
