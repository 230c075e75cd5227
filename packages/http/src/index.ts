export {
  type AdaptiveLimiter,
  type AdaptiveLimiterSettings,
  createAdaptiveLimiter,
  type LimiterOutcome,
  type LimiterTicket,
  type RateLimitInfo,
} from "./adaptive-limiter.js";
export { type AttemptOutcome, type Balancer, type BalancerSettings, createBalancer, type EndpointStats, type Lane, OutageError } from "./balancer.js";
export { type AttemptTimeout, type AttemptTimeoutSettings, createAttemptTimeout } from "./attempt-timeout.js";
export { createTransport, describeNetworkError, type Endpoint, type HttpReply, type Transport, TransportError } from "./http-transport.js";
export { createRecentFailures, type RecentFailures } from "./recent-failures.js";
export { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from "./retry-policy.js";
