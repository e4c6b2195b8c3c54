/**
 * The skills client against the official SDK v2 server (`loadSkills` + `createMcpHandler`) over
 * real HTTP: the shared client suite (list, get, read every file verified, directories,
 * percent-encoded names).
 */
import { skillsClientSuite } from '../support/skills-client-suite.js';
import { serveV2Folder } from './support/servers.js';

skillsClientSuite('the SDK v2 server', serveV2Folder);
