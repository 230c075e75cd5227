import { solveSpatialPrompt } from "@yardstick/spatial";
import type { DevServerRequest } from "@yardstick/testing";

/** The dev server's `spatial-solver` policy: answers spatial questions from the description text alone. */
export function spatialSolverPolicy(request: DevServerRequest): string {
  return solveSpatialPrompt(request.lastUserText) ?? "Answer: I don't know";
}
