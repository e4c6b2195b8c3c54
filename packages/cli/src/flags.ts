import type { ParseArgsConfig } from 'node:util';

/**
 * The options each command's parser accepts, in one place so the help text can be checked against
 * them (a boolean `x` is also accepted as `--no-x`).
 */
export const FLAGS = {
  serve: {
    port: { type: 'string' },
    host: { type: 'string' },
    path: { type: 'string' },
    framework: { type: 'string' },
    prefix: { type: 'string' },
    'page-size': { type: 'string' },
    'retain-ms': { type: 'string' },
    stateless: { type: 'boolean' },
    watch: { type: 'boolean' },
    strict: { type: 'boolean' },
    table: { type: 'string' },
    'poll-interval': { type: 'string' },
    'full-list-interval': { type: 'string' },
    'tenant-header': { type: 'string' },
    'max-tenants': { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'request-timeout': { type: 'string' },
    instructions: { type: 'string' },
    cors: { type: 'string', multiple: true },
    tools: { type: 'boolean' },
    prompts: { type: 'boolean' },
    search: { type: 'boolean' },
    'well-known': { type: 'boolean' },
    health: { type: 'string', multiple: true },
    'log-format': { type: 'string' },
    trust: { type: 'string', multiple: true },
    'require-signature': { type: 'boolean' },
  },
  check: {
    prefix: { type: 'string' },
    json: { type: 'boolean' },
    table: { type: 'string' },
    strict: { type: 'boolean' },
    trust: { type: 'string', multiple: true },
  },
  sign: { key: { type: 'string' } },
  publish: {
    delete: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    force: { type: 'boolean' },
    strict: { type: 'boolean' },
    table: { type: 'string' },
    concurrency: { type: 'string' },
    sign: { type: 'string' },
  },
  ls: {
    json: { type: 'boolean' },
    header: { type: 'string', multiple: true },
    'well-known': { type: 'boolean' },
    trust: { type: 'string', multiple: true },
    'require-signature': { type: 'boolean' },
  },
  get: {
    header: { type: 'string', multiple: true },
    'well-known': { type: 'boolean' },
    trust: { type: 'string', multiple: true },
    'require-signature': { type: 'boolean' },
  },
  search: { json: { type: 'boolean' }, header: { type: 'string', multiple: true }, limit: { type: 'string' } },
} as const satisfies Record<string, NonNullable<ParseArgsConfig['options']>>;
