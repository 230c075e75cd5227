// What the bin's bundle takes from undici in place of its index. The CLI sends every request through
// @yardstick/http, which uses undici's Pool (with its own dispatch handler) and `util.parseHeaders`;
// undici's index also loads fetch, WebSocket, EventSource, caches, mocks, proxies and interceptors,
// which made up 700 KB of the `run` command's 2.9 MB of JavaScript and ~80 ms of every start.
// The packages themselves import "undici" as published; only bundle.mjs points "undici" here. An
// import of any other name from "undici" fails the bundle build (a missing export), so this file
// cannot fall silently behind @yardstick/http.
import Pool from "undici/lib/dispatcher/pool.js";
import coreUtil from "undici/lib/core/util.js";

export { Pool };
/** The part of undici's public `util` that @yardstick/http uses. */
export const util = { parseHeaders: coreUtil.parseHeaders };
