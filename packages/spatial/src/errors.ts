import { YardstickError } from "@yardstick/core";

/** Generation could not satisfy the request (crowded canvas, impossible balance, bad options). */
export class SpatialGenerationError extends YardstickError {
  override readonly code = "spatial-generation";
}
