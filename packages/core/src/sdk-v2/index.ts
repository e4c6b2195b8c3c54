/**
 * `@skillmount/core/sdk-v2`: skillmount's sources and storages served by the official MCP SDK v2
 * (`@modelcontextprotocol/server`, an optional peer), under its own `SkillsExtension`:
 *
 * ```ts
 * const handler = createMcpHandler(() => { const mcp = new McpServer(info); extension.attach(mcp); return mcp; });
 * const extension = new SkillsExtension(sdkV2Skills(catalog));
 * notifyListChanges(catalog, handler.notify);
 * ```
 *
 * Per-tenant catalogs take one handler per tenant, so each tenant's list changes reach its own
 * listening clients only: `toNodeHandler(sdkV2TenantHandler(tenants, () => createMcpHandler(factory)))`.
 *
 * Nothing here loads the SDK v2 at run time; it is needed for its types, and to serve.
 *
 * @module @skillmount/core/sdk-v2
 */
export { sdkV2Source, type SdkV2SourceOptions } from './source.js';
export { sdkV2Skills, type SdkV2SkillsOptions } from './extension-options.js';
export { notifyListChanges, type ResourcesChangedNotifier } from './list-changes.js';
export { sdkV2TenantHandler, type SdkV2TenantHandler } from './tenant-handler.js';
export type { SdkV2ContextFunction } from './context.js';
export { skillsInstructions, type SkillsInstructions, type SkillsInstructionsOptions, type SkillsInstructionsRequest } from './instructions.js';
