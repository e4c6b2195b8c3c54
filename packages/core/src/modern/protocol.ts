/** Names and codes of protocol revision 2026-07-28 that the modern path speaks. */
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

export const MODERN_VERSION = '2026-07-28';
/** The versions `server/discover` and `UnsupportedProtocolVersion` name: this revision, and the legacy one the same endpoint serves. */
export const SUPPORTED_VERSIONS = [MODERN_VERSION, '2025-11-25'] as const;
/** Header values that belong to a 2025 (session or stateless) client, whose requests stay on the legacy path. */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export const HEADER_MISMATCH = JsonRpcErrorCode.HeaderMismatch;
export const MISSING_CLIENT_CAPABILITY = JsonRpcErrorCode.MissingClientCapability;
export const UNSUPPORTED_PROTOCOL_VERSION = JsonRpcErrorCode.UnsupportedProtocolVersion;
export const INVALID_REQUEST = JsonRpcErrorCode.InvalidRequest;
export const METHOD_NOT_FOUND = JsonRpcErrorCode.MethodNotFound;

export const METHOD_DISCOVER = 'server/discover';
export const METHOD_LISTEN = 'subscriptions/listen';

/** Results 2026-07-28 requires to carry `ttlMs` and `cacheScope`. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);

/** Methods 2026-07-28 removed; the modern path answers them "Method not found", as the spec's servers do. */
export const REMOVED_METHODS: ReadonlySet<string> = new Set(['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** A JSON-RPC error the modern path answers with, and the HTTP status it goes out with. */
export class ModernError extends Error {
  readonly status: number;
  readonly code: number;
  readonly data?: unknown;

  constructor(status: number, code: number, message: string, data?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.data = data;
    this.name = 'ModernError';
  }
}
