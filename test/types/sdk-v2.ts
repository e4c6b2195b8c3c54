// Type tests for @skillmount/core/sdk-v2: checked by tsc (see types.test.ts), never run.
import { SkillsExtension, type SkillSource as SdkV2SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWellKnownHandler, type SkillCatalog, tenantCatalogs, type SkillContext, type SkillSource, type WellKnownHandler } from '@skillmount/core';
import {
  notifyListChanges,
  sdkV2Skills,
  sdkV2Source,
  sdkV2TenantHandler,
  skillsInstructions,
  type SdkV2SkillsOptions,
  type SdkV2SourceOptions,
  type SdkV2TenantHandler,
  type SkillsInstructions,
  type SkillsInstructionsOptions,
} from '@skillmount/core/sdk-v2';
import { toNodeHandler } from '@modelcontextprotocol/node';

declare const catalog: SkillCatalog;
declare const source: SkillSource;

// Any skillmount source becomes the SDK v2's SkillSource; sdkV2Skills is SkillsExtension's options as they are.
const adapted: SdkV2SkillSource = sdkV2Source(source);
const extension = new SkillsExtension(sdkV2Skills(catalog));
new SkillsExtension({ ...sdkV2Skills(tenantCatalogs({ key: (ctx) => ctx.tenant as string, storage: () => ({}) as never })), strict: true });
const options: SdkV2SkillsOptions = sdkV2Skills(source, { strict: true, onWarning: (w) => console.log(w.code) });

// The context option reads the SDK v2's ServerContext; visible reads what it added.
interface PlanContext extends SkillContext {
  plan?: string;
}
const withPlan: SdkV2SourceOptions<PlanContext> = {
  context: (ctx) => ({ plan: ctx.http?.req?.headers.get('x-plan') ?? 'free', user: ctx.http?.authInfo?.clientId }),
  visible: (entry, ctx) => ctx.plan === 'pro' || entry.frontmatter.name !== 'premium',
};
sdkV2Source(source as SkillSource<PlanContext>, withPlan);
// @ts-expect-error the context option returns an object of fields
sdkV2Source(source, { context: () => 'acme' });

// List changes go to createMcpHandler's notify.
const handler = createMcpHandler(() => {
  const mcp = new McpServer({ name: 'app', version: '1.0.0' });
  extension.attach(mcp);
  return mcp;
});
const stop: () => void = notifyListChanges(catalog, handler.notify);
// @ts-expect-error the notifier is the handler's notify, not the handler
notifyListChanges(catalog, handler);

// One handler per tenant: what toNodeHandler takes; per-tenant catalogs only, and create returns createMcpHandler(...).
const tenants = tenantCatalogs({ key: (ctx) => ctx.tenant as string, storage: () => ({}) as never });
const perTenant: SdkV2TenantHandler = sdkV2TenantHandler(tenants, (key?: string) =>
  createMcpHandler(() => new McpServer({ name: `app-${key}`, version: '1' })),
);
toNodeHandler(perTenant);
const closing: Promise<void> = perTenant.close();
// @ts-expect-error a single catalog has no tenants: one createMcpHandler serves it
sdkV2TenantHandler(catalog, () => handler);
// @ts-expect-error create returns the handler, not the server
sdkV2TenantHandler(tenants, () => new McpServer({ name: 'app', version: '1.0.0' }));

void [adapted, options, stop, closing];

// The instructions for a request, in the createMcpHandler factory: its context is what the function takes.
const instructions: SkillsInstructions = skillsInstructions(catalog, { maxBytes: 1024, intro: 'Acme playbooks.', visible: (entry) => entry.uri !== '' });
createMcpHandler(async (ctx) => new McpServer({ name: 'app', version: '1.0.0' }, { instructions: await instructions(ctx, 'Own text.') }));
const fromPlan: SkillsInstructionsOptions<PlanContext> = {
  context: (ctx) => ({ plan: ctx.requestInfo?.headers.get('x-plan') }),
  visible: (_, ctx) => ctx.plan === 'pro',
};
skillsInstructions(source as SkillSource<PlanContext>, fromPlan);
// @ts-expect-error the section is a promise of text, not text
const sync: string = instructions({});
// @ts-expect-error maxBytes is a number of bytes
skillsInstructions(catalog, { maxBytes: '2 KiB' });

// The well-known handler is a Node handler: (req, res, context?) => Promise<boolean>.
const wellKnown: WellKnownHandler = createWellKnownHandler({
  source: catalog,
  allowedHosts: ['skills.example.com'],
  allowedOrigins: ['https://app.example.com'],
});
const answered: Promise<boolean> = wellKnown({} as IncomingMessage, {} as ServerResponse, { tenant: 'acme' });
// @ts-expect-error source is required
createWellKnownHandler({ visible: () => true });

void [sync, answered];
