export { skillsMiddleware } from './middleware.js';
export type { SkillsMiddlewareOptions, SkillsRouter } from './types.js';
