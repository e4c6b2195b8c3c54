import { SKILLS_EXTENSION_ID } from './constants.js';

/** What a server declares under `capabilities.extensions["io.modelcontextprotocol/skills"]`. */
export interface SkillsCapabilitySettings {
  /** The server serves `resources/directory/read`. */
  directoryRead?: boolean;
  [setting: string]: unknown;
}

/** The part of a server's capabilities the skills extension looks at. */
export interface SkillsServerCapabilities {
  resources?: object;
  extensions?: Record<string, unknown>;
  [capability: string]: unknown;
}

/**
 * The capabilities a server declares for the extension, to merge into its own
 * (`{ ...capabilities, ...skillsCapability({ directoryRead: true }) }`, or deeper when it already
 * declares other extensions): the extension itself, and `resources`, which the extension requires.
 *
 * @example
 * ```ts
 * import { skillsCapability } from '@skillmount/core';
 *
 * const capabilities = { tools: {}, ...skillsCapability({ directoryRead: true }) };
 * ```
 * @throws TypeError when `settings` is not an object or `directoryRead` is not a boolean.
 */
export function skillsCapability(settings: { directoryRead?: boolean } = {}): {
  resources: Record<string, never>;
  extensions: { [SKILLS_EXTENSION_ID]: SkillsCapabilitySettings };
} {
  if (settings === null || typeof settings !== 'object')
    throw new TypeError('skillmount: skillsCapability(settings) takes an object such as { directoryRead: true }');
  const { directoryRead } = settings;
  if (directoryRead !== undefined && typeof directoryRead !== 'boolean') {
    throw new TypeError(`skillmount: skillsCapability: directoryRead must be true or false, not ${JSON.stringify(directoryRead)}`);
  }
  return { resources: {}, extensions: { [SKILLS_EXTENSION_ID]: directoryRead === undefined ? {} : { directoryRead } } };
}

/**
 * The extension's settings as a server declared them, or undefined when it did not declare the extension.
 *
 * @example
 * ```ts
 * import { skillsCapabilityOf } from '@skillmount/core';
 *
 * const settings = skillsCapabilityOf({ extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } } });
 * console.log(settings?.directoryRead); // true
 * ```
 * @throws Nothing: capabilities without the extension give `undefined`.
 */
export function skillsCapabilityOf(capabilities: SkillsServerCapabilities | undefined): SkillsCapabilitySettings | undefined {
  const declared = (capabilities?.extensions as Record<string, unknown> | undefined)?.[SKILLS_EXTENSION_ID];
  return declared !== null && typeof declared === 'object' && !Array.isArray(declared) ? (declared as SkillsCapabilitySettings) : undefined;
}

/**
 * Whether a server's capabilities declare the extension. With `enforceStrictCapabilities` (as the
 * MCP SDK client option of that name), the server must also declare `resources`, which the
 * extension requires and which `resources/read` of a strict SDK client checks for.
 *
 * @example
 * ```ts
 * import { serverSupportsSkills } from '@skillmount/core';
 *
 * const capabilities = { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } };
 * console.log(serverSupportsSkills(capabilities, { enforceStrictCapabilities: true })); // true
 * ```
 * @throws Nothing: capabilities without the extension give `false`.
 */
export function serverSupportsSkills(capabilities: SkillsServerCapabilities | undefined, options: { enforceStrictCapabilities?: boolean } = {}): boolean {
  if (skillsCapabilityOf(capabilities) === undefined) return false;
  return options.enforceStrictCapabilities !== true || (capabilities?.resources !== undefined && capabilities.resources !== null);
}
