// Type tests for @skillmount/express: checked by tsc (see types.test.ts), never run.
import type { ReloadReport, SkillSource } from '@skillmount/core';
import { skillsMiddleware, type SkillsRouter } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';
import express, { type RequestHandler } from 'express';

const app = express();
const skills = skillsMiddleware({ storage: fsStorage('./skills') });

// Usable as Express middleware, on a path or not.
app.use('/mcp', skills);
const handler: RequestHandler = skills;

const ready: Promise<SkillSource> = skills.ready;
const reload: Promise<ReloadReport> = skills.reload();
const closed: Promise<void> = skills.close();
app.post('/own', async (req, res) => {
  if (await skills.handleModern(req, res)) return;
  const n: number = await skills.run(req, () => 1);
  res.json({ n });
});
const attached: ReturnType<SkillsRouter['attach']> = skills.attach(null as unknown as Parameters<SkillsRouter['attach']>[0]);

// @ts-expect-error an option that does not exist is refused
skillsMiddleware({ storage: fsStorage('./skills'), stroage: 1 });
// @ts-expect-error a wrong type for an option is refused
skillsMiddleware({ storage: fsStorage('./skills'), sessions: 'yes' });
skillsMiddleware({ storage: fsStorage('./skills'), maxListenStreams: 256, maxListenStreamsPerClient: 8, listenLifetimeMs: 600_000 });
// @ts-expect-error the per-client listen share is a number
skillsMiddleware({ storage: fsStorage('./skills'), maxListenStreamsPerClient: '8' });
skillsMiddleware({ storage: fsStorage('./skills'), tools: true, prompts: true });
skillsMiddleware({ storage: fsStorage('./skills'), search: true });
skillsMiddleware({ storage: fsStorage('./skills'), search: { text: true } });
// @ts-expect-error tools is a boolean
skillsMiddleware({ storage: fsStorage('./skills'), tools: 'read_skill' });
// @ts-expect-error ready is read-only
skills.ready = Promise.reject();
// /.well-known/agent-skills at the origin root: middleware.
app.use(skillsMiddleware({ storage: fsStorage('./skills'), wellKnown: true }).wellKnown);
const wellKnown: RequestHandler = skills.wellKnown;
// @ts-expect-error wellKnown is a switch
skillsMiddleware({ storage: fsStorage('./skills'), wellKnown: 'yes' });
// @ts-expect-error wellKnown is read-only
skills.wellKnown = handler;

export { attached, closed, handler, ready, reload, wellKnown };
