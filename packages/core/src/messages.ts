/** Chat messages, model requests and model responses: the wire-independent shapes every provider speaks. */

export interface TextPart {
  type: "text";
  text: string;
}

export interface ImagePart {
  type: "image_url";
  /** A data URI (`data:image/png;base64,...`) or an http(s) URL. */
  image_url: { url: string; detail?: "auto" | "low" | "high" };
}

export type ContentPart = TextPart | ImagePart;

export type ChatRole = "system" | "user" | "assistant";

export interface ChatMessage {
  role: ChatRole;
  content: string | ContentPart[];
}

/** Sampling parameters. Anything left undefined is not sent, so the server's defaults apply. */
export interface GenerationParams {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  seed?: number;
  /** Number of choices to sample (used by pass@k). */
  n?: number;
  /** Extra JSON fields merged into the request body, e.g. vLLM's `chat_template_kwargs`. */
  extraBody?: Record<string, unknown>;
  /**
   * Generate in two passes (SEA-HELM's base-model strategy): the first stops at this string (the
   * answer tag, kept in the answer), the second continues from there within the `maxTokens` left;
   * the answer is both texts. The engine makes the two requests; providers never send this field.
   * On a loglikelihood task (SEA-HELM's logprob tasks) the first pass generates from the context up
   * to this string, and the continuations are scored after the context and that text; a first pass
   * that never reaches it (finish "length") is answered with an empty text, which logprob metrics read as null.
   */
  stopAtFirst?: string;
  /** Tools the model may call (chat requests). */
  tools?: ToolDefinition[];
  /** "auto" (default), "required", or `{ name }` to force one tool: a forced choice needs no free-text parsing. */
  toolChoice?: "auto" | "required" | { name: string };
}

/** A function the model may call; `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** A tool call in a reply; `arguments` is the parsed JSON object the model produced. */
export interface ToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatRequest {
  kind: "chat";
  messages: ChatMessage[];
  params: GenerationParams;
}

export interface CompletionRequest {
  kind: "completion";
  prompt: string;
  params: GenerationParams;
  /** Return the prompt's tokens in the logprobs (loglikelihood scoring). */
  echo?: boolean;
  /** Number of top logprobs per token; 0 still returns the chosen token's logprob. */
  logprobs?: number;
}

export type ModelRequest = ChatRequest | CompletionRequest;

export type FinishReason = "stop" | "length" | "content_filter" | "tool_calls" | "error" | "unknown";

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
}

/** Per-token log-probabilities, as returned by `/v1/completions` with `logprobs`. */
export interface TokenLogprobs {
  tokens: string[];
  /** `null` for the first prompt token, which has no conditional probability. */
  tokenLogprobs: (number | null)[];
  /** Character offset of each token in the echoed text. */
  textOffset: number[];
  topLogprobs?: (Record<string, number> | null)[];
}

export interface ModelChoice {
  text: string;
  finishReason: FinishReason;
  reasoningContent?: string;
  logprobs?: TokenLogprobs;
  /** Tool calls of this choice, when the request offered tools. */
  toolCalls?: ToolCall[];
}

export interface ModelResponse {
  /** The first choice's text (for convenience; equals `choices[0].text`). */
  text: string;
  finishReason: FinishReason;
  reasoningContent?: string;
  /** The first choice's tool calls (equals `choices[0].toolCalls`). */
  toolCalls?: ToolCall[];
  choices: ModelChoice[];
  usage?: TokenUsage;
  logprobs?: TokenLogprobs;
  /** Model name reported by the server. */
  model?: string;
  /** Wall time of the successful attempt, in milliseconds. */
  latencyMs?: number;
}

/**
 * Why a call got no answer. `interrupted`: the run was stopped (Ctrl-C) while the call was in flight
 * or waiting to retry; that is no failure of the model, and a rerun sends the request again.
 */
export type ModelErrorKind = "api" | "timeout" | "network" | "invalid-response" | "interrupted" | "other";

/** What is stored for a request that failed for good (or was interrupted); the run goes on. */
export interface ModelErrorRecord {
  message: string;
  status?: number;
  kind: ModelErrorKind;
  /** Attempts sent (an interrupted call counts the one the stop cut). */
  attempts: number;
}
