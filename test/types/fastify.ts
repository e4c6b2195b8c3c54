// Type tests for @skillmount/fastify: checked by tsc (see types.test.ts), never run.
import { fsStorage } from '@skillmount/storage-fs';
import skillsPluginDefault, { type SkillsDecoration, type SkillsPluginOptions, skillsPlugin } from '@skillmount/fastify';
import type { ReloadReport, SkillEntry } from '@skillmount/core';
import Fastify from 'fastify';

const app = Fastify();
const storage = fsStorage('./skills');

// Right uses compile.
await app.register(skillsPlugin, { storage });
await app.register(skillsPluginDefault, { storage, prefix: '/mcp', watch: true });
const options = { storage, sessions: true } satisfies SkillsPluginOptions;
await app.register(skillsPlugin, options);
await app.register(skillsPlugin, { storage, maxListenStreams: 256, maxListenStreamsPerClient: 8, listenLifetimeMs: 600_000 });
await app.register(skillsPlugin, { storage, tools: true, prompts: false });
await app.register(skillsPlugin, { storage, search: true });

// @ts-expect-error an option that does not exist is refused
await app.register(skillsPlugin, { storage, stroage: storage });
// @ts-expect-error prompts is a boolean
await app.register(skillsPlugin, { storage, prompts: 'all' });
// @ts-expect-error a wrong type for an option is refused
await app.register(skillsPlugin, { storage, watch: 'yes' });
// @ts-expect-error storage must be a SkillFiles
await app.register(skillsPlugin, { storage: './skills' });
await app.register(skillsPlugin, { storage, wellKnown: true });
// @ts-expect-error wellKnown is a switch
await app.register(skillsPlugin, { storage, wellKnown: 'on' });
// @ts-expect-error the listen lifetime is a number of milliseconds
await app.register(skillsPlugin, { storage, listenLifetimeMs: '1h' });

// The decoration is typed.
const skills: SkillsDecoration = app.skills;
const entries: readonly SkillEntry[] = app.skills.entries;
const report: Promise<ReloadReport> = app.skills.reload();
const attach: (server: Parameters<SkillsDecoration['attach']>[0]) => unknown = app.skills.attach;
app.get('/own', async (request, reply) => {
  const answered: boolean = await app.skills.handleModern(request, reply);
  const n: number = await app.skills.run(request, () => 1);
  return { answered, n };
});
// @ts-expect-error entries are read-only
app.skills.entries = [];
// @ts-expect-error no such member
app.skills.reloadAll();

export { attach, entries, report, skills };
