/**
 * The registry of warning codes: what each `SkillWarning` code means and how often it is told.
 * The codes themselves are `SkillWarningCode` (types.ts, public); this table must name each one
 * exactly once, so the compiler refuses a code added to one and not the other. `told.ts` applies
 * the `once` rules; the core README's warning table says the same for users, and
 * test/packaging/registries.test.ts keeps the three in step.
 */
import type { SkillWarningCode } from '../types.js';

/**
 * How often a warning of one code is told:
 * - `per-load`: with every load and reload of a catalog that finds it (each load's `warnings` list it again);
 * - `per-subject`: once per owner (a source, a tenants router) and subject (the URI, path or key it is about; the code alone when none);
 * - `per-owner`: once per owner (a router, a plugin, a tenants router);
 * - `per-process`: once per process and subject, whichever owner meets it;
 * - `every-time`: each time it happens (each is a failed request or load the operator should see).
 */
export type WarningOnce = 'per-load' | 'per-subject' | 'per-owner' | 'per-process' | 'every-time';

export interface WarningRule {
  /** When the warning is told, in one line. */
  meaning: string;
  once: WarningOnce;
}

export const WARNING_CODES: Readonly<Record<SkillWarningCode, WarningRule>> = Object.freeze({
  frontmatter: { meaning: 'SKILL.md has no frontmatter, invalid YAML, a field against the spec, or bytes that are not UTF-8: skipped', once: 'per-load' },
  'name-mismatch': { meaning: "the frontmatter name is not the skill folder's name: skipped", once: 'per-load' },
  limit: { meaning: 'SKILL.md or its frontmatter over a size, depth or node limit (skipped), or a skill over its files or bytes (served)', once: 'per-load' },
  'skill-md-case': { meaning: 'a file named SKILL.md in another case: its folder is not a skill', once: 'per-load' },
  'bad-name': { meaning: 'a folder or file name that cannot be a skill URI segment: skipped or not served', once: 'per-load' },
  unsupported: { meaning: 'a symlink, a special file or a name that cannot be a relative path: ignored', once: 'per-load' },
  'root-skill': { meaning: "a SKILL.md at the storage root: the storage points at one skill's folder", once: 'per-load' },
  portability: { meaning: 'frontmatter YAML that some hosts cannot parse: served as is', once: 'per-load' },
  'reserved-metadata': { meaning: 'a metadata key with the prefix reserved for MCP extensions: hosts ignore it', once: 'per-load' },
  'hidden-characters': {
    meaning: 'SKILL.md holds invisible or direction-changing characters: served as published, left out of the lines derived from it',
    once: 'per-load',
  },
  'no-skills': { meaning: 'a storage with no SKILL.md in any folder it shows (not reported for tenants)', once: 'per-load' },
  'missing-skill-md': { meaning: 'buildSkillEntry was given no SKILL.md (in the CatalogError it throws)', once: 'per-load' },
  'signature-missing': { meaning: 'a skill without skill.oms.sig under trust.requireSignature: not served', once: 'per-load' },
  'signature-invalid': {
    meaning: "a skill's signature does not match its files, its path or the key it names: not served under trust.requireSignature, else served",
    once: 'per-load',
  },
  'signature-untrusted': {
    meaning: 'a skill signed by a key not in trust.keys: not served under trust.requireSignature, else served',
    once: 'per-load',
  },
  'read-failed': { meaning: 'a storage read for resources/read failed: the client gets -32603', once: 'every-time' },
  'reload-failed': { meaning: 'a reload failed: the previous catalog keeps serving', once: 'every-time' },
  changed: { meaning: 'a file no longer matches its published size and digest: refused until a reload', once: 'every-time' },
  'invalid-entry': { meaning: 'a custom source returned an invalid entry: dropped from its page, or the request fails', once: 'per-subject' },
  'invalid-page': { meaning: 'a custom source returned a skills/list, directory or resources/list answer of the wrong shape', once: 'per-subject' },
  'invalid-read-result': { meaning: "a custom source's read returned something other than bytes, { bytes } or { text }", once: 'per-subject' },
  'invalid-cache-hint': { meaning: "a source's cacheHint() returned a ttlMs or cacheScope out of range: the request fails", once: 'every-time' },
  'invalid-visible': { meaning: 'a visible() rule returned something other than a boolean: the skill is hidden', once: 'per-subject' },
  'visible-failed': { meaning: 'a visible() rule threw: the request fails with -32603', once: 'per-subject' },
  'internal-error': { meaning: 'a request failed inside the server: the client was told only "Internal error"', once: 'every-time' },
  'instructions-failed': {
    meaning: "the skills could not be listed for the instructions, or not within 3 s: the app's instructions went out without them",
    once: 'every-time',
  },
  'instructions-line-skipped': {
    meaning: "a skill's line did not fit in the instructions' skills section: left out, the lines after it named instead",
    once: 'per-process',
  },
  'tool-name-taken': { meaning: 'a Server of the app has its own read_skill tool beside the tools option: its tools/list fails', once: 'every-time' },
  'read-hook-failed': { meaning: 'an onSkillLoad or onFileRead hook threw or rejected: the read was answered all the same', once: 'per-subject' },
  'sdk-seam-missing': { meaning: 'this MCP SDK lacks an internal skillmount uses: what works without it is named', once: 'per-process' },
  'tenant-key-failed': { meaning: 'the tenant key function threw: the request gets -32603', once: 'every-time' },
  'tenant-key-refused': { meaning: 'a tenant key broke the key rules: served as no tenant', once: 'per-subject' },
  'tenant-load-failed': { meaning: "a tenant's skills could not be loaded: its requests get -32603 until a load succeeds", once: 'every-time' },
  'tenant-close-failed': { meaning: "closing an evicted tenant's catalog failed", once: 'every-time' },
  'watch-unsupported': { meaning: "a tenant's catalog could not be watched: tenants' changes are not reloaded", once: 'per-owner' },
  'load-failed': { meaning: "the adapter's catalog failed to load: requests get -32603", once: 'every-time' },
  'request-failed': { meaning: 'the adapter answered a request with HTTP 500, or ended its stream', once: 'every-time' },
  'modern-not-handled': { meaning: 'a 2026-07-28 request reached your own MCP route without handleModern', once: 'per-owner' },
  'context-not-applied': { meaning: 'a request on your own MCP route reached the source without the context option', once: 'per-owner' },
  'no-request-timeout': { meaning: 'the Fastify server has no requestTimeout: slow headers can hold a connection', once: 'per-owner' },
  'well-known-skipped': {
    meaning: 'a skill left out of /.well-known/agent-skills/index.json: the skills installer would refuse it, or its name is taken',
    once: 'per-subject',
  },
  'well-known-not-served': {
    meaning: "/.well-known/agent-skills answers 404: the app's server answers resources/read or skills/list with its own handler",
    once: 'per-owner',
  },
});
