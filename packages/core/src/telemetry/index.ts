/**
 * OpenTelemetry spans and metrics for skillmount, by the MCP semantic conventions, from its
 * diagnostics channels. Needs `@opentelemetry/api` (an optional peer of `@skillmount/core`).
 *
 * @module @skillmount/core/telemetry
 */
export { instrumentSkills, SCHEMA_URL, type SkillsTelemetry, type SkillsTelemetryOptions } from './otel.js';
export {
  SKILLS_CHANNELS,
  type CatalogBuildMessage,
  type EvictionReason,
  type SkillRequestMessage,
  type TenantCacheMessage,
  type TenantLoadMessage,
  type WellKnownAnswerMessage,
} from './channels.js';
