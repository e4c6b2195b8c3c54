/**
 * The skills service as the public `SkillsService`: the skills methods as plain functions over
 * the service an endpoint answers every surface with, their arguments checked as the MCP
 * methods check their params, and the request context built as for an MCP handler.
 */
import { contextFromExtra } from '../context/store.js';
import { fileNotFound } from '../errors.js';
import { METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from '../protocol/constants.js';
import type { SkillsService } from '../types.js';
import type { SkillHandlers } from './handlers.js';
import { optionalCursor, requiredUri } from './params.js';
import { searchAsk } from './search-tool.js';

export function publicService(handlers: SkillHandlers): SkillsService {
  return Object.freeze({
    list: async (cursor, extra) => handlers.list(optionalCursor({ cursor }, METHOD_SKILLS_LIST), contextFromExtra(extra)),
    get: async (uri, extra) => handlers.get(requiredUri({ uri }, METHOD_SKILLS_GET, "the skill's SKILL.md URI"), contextFromExtra(extra)),
    read: async (uri, extra) => {
      const checked = requiredUri({ uri }, 'resources/read', 'a skill file URI');
      // Other URIs are the app's resources: not the service's to read.
      if (!handlers.serves(checked)) throw fileNotFound(checked);
      return handlers.read(checked, contextFromExtra(extra));
    },
    readDirectory: async (uri, cursor, extra) => {
      const checked = requiredUri({ uri }, METHOD_DIRECTORY_READ, 'a directory URI without a trailing slash');
      return handlers.readDirectory(checked, optionalCursor({ cursor }, METHOD_DIRECTORY_READ), contextFromExtra(extra));
    },
    listResources: async (extra) => handlers.listResources(contextFromExtra(extra)),
    search: async (query, options = {}, extra) => handlers.search(searchAsk(query, options), contextFromExtra(extra)),
  } satisfies SkillsService);
}
