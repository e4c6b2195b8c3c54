import { skillsPlugin } from './plugin.js';

export { skillsPlugin };
export type { AnyMcpServer, SkillsDecoration, SkillsPluginOptions } from './types.js';
export default skillsPlugin;
