/**
 * The request header a provider's retry carries: its attempt number (2, 3, ...), as OpenAI's SDK
 * sends its retry count. Server logs, and the dev server's stats, can then tell retries from new
 * requests (a request re-sent after a crash is a new request).
 */
export const ATTEMPT_HEADER = "x-yardstick-attempt";
