// Type tests for @skillmount/core/sdk-v2: checked by tsc (see types.test.ts), never run.
import { SkillsExtension, type SkillSource as SdkV2SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { type SkillCatalog, tenantCatalogs, type SkillContext, type SkillSource } from '@skillmount/core';
import { notifyListChanges, sdkV2Skills, sdkV2Source, type SdkV2SkillsOptions, type SdkV2SourceOptions } from '@skillmount/core/sdk-v2';

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

void [adapted, options, stop];
