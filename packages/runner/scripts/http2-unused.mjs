// What the bin's bundle gives undici in place of node:http2. undici's client loads node:http2 when
// it is loaded (~10 ms of every start) to speak HTTP/2 after an ALPN "h2" answer; yardstick never
// offers h2 (no `allowH2`), so only the constants the client destructures at load are needed.
// undici itself falls back to the same empty constants when node:http2 cannot be loaded.
export const constants = {};
export default { constants };
