/**
 * Serve Agent Skills over MCP from a Fastify 5 app: `await app.register(skillsPlugin, { storage })`.
 *
 * @module @skillmount/fastify
 */
import { skillsPlugin } from './plugin.js';

export { skillsPlugin };
// What a CORS layer in front of the endpoint must allow, for browser hosts: spread into @fastify/cors.
export { MCP_CORS_OPTIONS, type McpCorsOptions } from '@skillmount/core';
export type { AnyMcpServer, SkillsDecoration, SkillsPluginOptions } from './types.js';
export default skillsPlugin;
