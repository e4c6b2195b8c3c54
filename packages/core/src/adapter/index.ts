/**
 * `@skillmount/core/adapter`: what an HTTP adapter for a web framework is built from. The options
 * every adapter shares, declared and checked once; the request checks (Host/Origin, body limit and
 * deadline) and the answers for refused requests; body plumbing; hiding internal errors; the
 * per-request context. An app author needs none of it: `@skillmount/fastify` and
 * `@skillmount/express` (or `createSkillsEndpoint` from `@skillmount/core`) wire it up.
 *
 * @module @skillmount/core/adapter
 */
export { checkAdapterOptions, STORAGE_ONLY_OPTIONS } from './options.js';
export { contextFields, INVALID_CONTEXT } from './context.js';
export type { AnyMcpServer, CheckedAdapterOptions, SkillsAdapterOptions, SkillsOrigin } from './types.js';
export { createRequestGuard, bodyNotJson, bodyTooLarge, bodyTooSlow } from '../http/guard.js';
export { closeAfterAnswer, discardBody } from '../http/body.js';
export { LOCALHOST_NAMES } from '../http/hosts.js';
export { hideInternalErrors } from '../sdk/internal-errors.js';
export { sendError } from '../http/reply.js';
export { contextOfRequest } from '../context/store.js';
export { setClientAddress } from '../context/client-key.js';
export type { AllowedHosts, HttpRefusal, RequestGuard, RequestGuardOptions } from '../http/types.js';
export { deferredSource, type DeferredSourceOptions } from '../routing/deferred-source.js';
export { JsonRpcErrorCode } from '../protocol/error-codes.js';
export { checkServerSurfaces } from './surfaces.js';
export { HEALTH_LOADING, HEALTH_STOPPING, healthLoadFailed, healthOf, type SkillsHealth } from '../health/readiness.js';
