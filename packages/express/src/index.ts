/**
 * Serve Agent Skills over MCP from an Express 5 app: `app.use('/mcp', skillsMiddleware({ storage }))`.
 *
 * @module @skillmount/express
 */
export { skillsMiddleware } from './middleware.js';
// What a CORS layer in front of the endpoint must allow, for browser hosts: spread into cors().
export { MCP_CORS_OPTIONS, type McpCorsOptions } from '@skillmount/core';
export type { SkillsLogger, SkillsMiddlewareOptions, SkillsRouter } from './types.js';
