import { createHash } from "node:crypto";

/** A chat message as far as the prompt hash is concerned: only role and content count. */
export interface HashableMessage {
  role: string;
  content: unknown;
}

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
}

/**
 * sha256 (hex) of the canonical form of what was sent: a completion prompt (string) or a list of chat
 * messages (reduced to `{role, content}` so extra message fields do not change the hash). The dev
 * server counts requests under this hash in `/stats`, so a test can prove exactly what a client sent.
 */
export function promptHash(messagesOrPrompt: string | readonly HashableMessage[]): string {
  const canonical =
    typeof messagesOrPrompt === "string"
      ? canonicalJson({ prompt: messagesOrPrompt })
      : canonicalJson({ messages: messagesOrPrompt.map((m) => ({ role: m.role, content: m.content })) });
  return createHash("sha256").update(canonical).digest("hex");
}
