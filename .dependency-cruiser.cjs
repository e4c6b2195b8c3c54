// Import boundaries of the workspace, checked by `pnpm check:imports` (part of `pnpm test`).
// Paths are relative to the folder the check runs in (the repository root), with `/` separators.
// Every rule says in its comment why it is there; a violation is printed with that comment.

const path = require('node:path');
const ts = require('typescript');

// Each package's public entry points (`@skillmount/core/adapter` → packages/core/src/adapter/index.ts), from the
// tsconfig the check resolves imports with: imports by package name resolve to sources, so the check needs no build.
const TSCONFIG = path.join(__dirname, 'tsconfig.imports.json');
const { config: tsconfig, error } = ts.readConfigFile(TSCONFIG, ts.sys.readFile);
if (error) throw new Error(`${TSCONFIG}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
const ENTRY_POINTS = Object.fromEntries(Object.entries(tsconfig.compilerOptions.paths).map(([name, [file]]) => [name, file]));

const CORE = '^packages/core/src/';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (paths) => `^(${paths.map(escape).join('|')})$`;
const CORE_ENTRY_POINTS = anyOf(Object.entries(ENTRY_POINTS).flatMap(([name, file]) => (name.startsWith('@skillmount/core') ? [file] : [])));

/**
 * The layers of packages/core/src, lowest first: a module imports only from its own layer and the
 * layers below it, so no import can close a cycle between two layers. A folder ends in `/`, a
 * file at the root of src is named as it is. A new folder goes into the layer its imports allow.
 */
const LAYERS = [
  { name: 'helpers', holds: ['text/', 'bytes/'], what: 'strings, bytes and digests; imports nothing of core' },
  { name: 'basics', holds: ['brand.ts', 'version.ts', 'option-error.ts', 'option-checks.ts'], what: 'class brands, the version, option errors' },
  // Above the basics: checkTrustedKeys and the verifiers refuse a malformed key list with an OptionError.
  { name: 'trust', holds: ['trust/'], what: 'the skill digest, signing and verifying (standard JavaScript and WebCrypto: browsers import it)' },
  { name: 'storage-kit', holds: ['storage-kit/'], what: 'the SkillFiles interface and the kit storages share (@skillmount/core/storage-kit)' },
  { name: 'types', holds: ['types.ts'], what: 'the public types' },
  { name: 'skillmd', holds: ['skillmd/'], what: 'the Agent Skills file format: SKILL.md parsing, names, limits' },
  { name: 'protocol', holds: ['protocol/'], what: 'the extension on the wire: constants, schemas, capability' },
  { name: 'errors-and-uris', holds: ['errors.ts', 'uri/'], what: 'protocol errors and skill URIs' },
  { name: 'entry', holds: ['entry/'], what: 'building and validating one skill entry' },
  { name: 'search', holds: ['search/'], what: 'the search index and its ranking, shared by the catalog and the host-side client' },
  {
    name: 'host-and-serving-basics',
    holds: ['client/', 'context/', 'routing/', 'sdk/', 'storage/', 'telemetry/', 'warnings/'],
    what: 'the host-side client; per-request context, source routing, SDK seams, the memory storage, diagnostics channels, warnings',
  },
  { name: 'catalog', holds: ['catalog/'], what: 'catalogs built from a SkillFiles storage' },
  { name: 'service', holds: ['server/', 'tenants/', 'health/'], what: 'the skills service (SkillHandlers), attach, per-tenant catalogs, readiness' },
  { name: 'modern', holds: ['modern/'], what: 'the 2026-07-28 request path' },
  { name: 'well-known', holds: ['well-known/'], what: 'the /.well-known/agent-skills surface over the skills service' },
  { name: 'http', holds: ['http/'], what: 'the endpoint, its guard and the 2025-11-25 request paths' },
  {
    name: 'entry-points',
    holds: ['adapter/', 'sdk-v2/', 'index.ts'],
    what: 'the public entry points @skillmount/core, @skillmount/core/adapter and @skillmount/core/sdk-v2',
  },
];

const layerPath = (holds) => holds.map((held) => `${CORE}${escape(held)}${held.endsWith('/') ? '' : '$'}`);

const layerRules = LAYERS.slice(0, -1).map((layer, at) => {
  const above = LAYERS.slice(at + 1);
  return {
    // One name per layer: a report prints the comment of the first rule with a violation's name.
    name: `core-layer-${layer.name}`,
    severity: 'error',
    comment:
      `packages/core/src is layered, lowest first: ${LAYERS.map((l) => l.name).join(' < ')}. ` +
      `Layer "${layer.name}" (${layer.holds.join(', ')}: ${layer.what}) may not import from the layers above it ` +
      `(${above.map((l) => l.name).join(', ')}). Move what both need down into the lower layer, or move the importing module up.`,
    from: { path: layerPath(layer.holds) },
    to: { path: above.flatMap((l) => layerPath(l.holds)) },
  };
});

const EVERY_LAYER = LAYERS.flatMap((layer) => layerPath(layer.holds));

/** The folders and root files that both the host side and the serving side use. */
const SHARED = ['bytes/', 'text/', 'trust/', 'uri/', 'skillmd/', 'protocol/', 'entry/', 'search/', 'storage-kit/', 'errors.ts', 'types.ts', 'brand.ts', 'option-error.ts', 'option-checks.ts', 'version.ts'];

// Web frameworks and their plugins, as resolved paths (or as written, when a package is not installed):
// express, express-*, @types/express…, fastify, fastify-plugin, @fastify/*, koa, hono, h3, …
const HTTP_FRAMEWORKS = [
  '(^|node_modules/)(@types/)?(express|fastify|koa|hono|restify|polka|elysia|hapi)[^/]*(/|$)',
  '(^|node_modules/)(h3|micro)(/|$)',
  '(^|node_modules/)@(fastify|koa|hono|hapi|nestjs|elysiajs)/',
];

module.exports = {
  forbidden: [
    {
      name: 'core-no-http-framework',
      severity: 'error',
      comment:
        'core is framework-neutral: it speaks node:http and the MCP SDK, and each framework lives in its own adapter package ' +
        '(packages/express, packages/fastify). Move framework code into the adapter and hand core a node:http request and response.',
      from: { path: CORE },
      to: { path: HTTP_FRAMEWORKS },
    },
    {
      name: 'client-imports-shared-only',
      severity: 'error',
      comment:
        'The SkillsClient (core/src/client, @skillmount/core/client) runs in hosts and browsers: it may import only the shared folders ' +
        `(${SHARED.join(', ')}), never the serving side (catalog, http, modern, server, tenants, storage, routing, context, sdk, warnings). ` +
        'Move what the client needs into a shared folder.',
      from: { path: `${CORE}client/` },
      to: { path: CORE, pathNot: [`${CORE}client/`, ...layerPath(SHARED)] },
    },
    {
      name: 'client-uses-sdk-client-side',
      severity: 'error',
      comment:
        "The SkillsClient runs in hosts: of the MCP SDK it may use the client side and the shared types, never the SDK's server modules. " +
        'Import from @modelcontextprotocol/sdk/client/… or …/types.js instead.',
      from: { path: `${CORE}client/` },
      to: { path: 'node_modules/@modelcontextprotocol/sdk/dist/(esm|cjs)/server/' },
    },
    {
      name: 'sdk-v2-only-behind-its-entry-point',
      severity: 'error',
      comment:
        'The official MCP SDK v2 (@modelcontextprotocol/server and its siblings) is an optional peer of core: apps on the SDK v1 ' +
        'install nothing of it. Only packages/core/src/sdk-v2/ (@skillmount/core/sdk-v2) may name it. Move the code there.',
      from: { path: CORE, pathNot: `${CORE}sdk-v2/` },
      to: { path: '(^|node_modules/)@modelcontextprotocol/(server|client|core|node|express|fastify)(/|$)' },
    },
    {
      name: 'sdk-v2-types-only',
      severity: 'error',
      comment:
        '@skillmount/core/sdk-v2 uses the SDK v2 for its types only, so importing the subpath loads none of it and the peer stays ' +
        'optional until an app serves with it. Write `import type`.',
      from: { path: `${CORE}sdk-v2/` },
      to: { path: '(^|node_modules/)@modelcontextprotocol/(server|client|core|node|express|fastify)(/|$)', dependencyTypesNot: ['type-only'] },
    },
    ...layerRules,
    {
      name: 'core-layer-unknown',
      severity: 'error',
      comment:
        'Every module of packages/core/src belongs to a layer (LAYERS in .dependency-cruiser.cjs), so the layer rule can see it. ' +
        'Put the new folder or root file into the layer its imports allow.',
      from: { path: CORE, pathNot: EVERY_LAYER },
      to: {},
    },
    {
      name: 'core-layer-unknown',
      severity: 'error',
      comment:
        'Every module of packages/core/src belongs to a layer (LAYERS in .dependency-cruiser.cjs), so the layer rule can see it. ' +
        'Put the new folder or root file into the layer its imports allow.',
      from: { path: CORE },
      to: { path: CORE, pathNot: EVERY_LAYER },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle of imports makes load order matter (a class is undefined where its module is half-loaded) and ties modules that ' +
        'should change apart. Move the shared piece into a module both import.',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment:
        'Folders are layers: when one folder imports another and the other imports it back (through any files), neither can be read ' +
        'or moved alone. Move the piece both use into the lower folder.',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'wire-through-the-service',
      severity: 'error',
      comment:
        'Only the skills service (server/handlers.ts, class SkillHandlers) and the catalog itself call the skills methods of a ' +
        'SkillSource, so visibility, budgets and checks apply on every surface. Enforced: the modules that answer requests on the ' +
        'wire (http/, modern/, well-known/) and every server/ module but handlers.ts import nothing from catalog/, tenants/, routing/ or ' +
        'storage/, so the only way they reach skills is a SkillHandlers. Not enforced: a call such as source.list(ctx) on the ' +
        'SkillSource value they pass along (they import its type from types.ts); reviews and the per-surface tests catch those. ' +
        'Ask SkillHandlers for the answer instead.',
      from: { path: [`${CORE}(http|modern|well-known)/`, `${CORE}server/`], pathNot: `${CORE}server/handlers\\.ts$` },
      to: { path: `${CORE}(catalog|tenants|routing|storage)/` },
    },
    {
      name: 'adapter-uses-core-entry-points',
      severity: 'error',
      comment:
        'The adapters (packages/express, packages/fastify) use core as any other user would, through @skillmount/core and ' +
        "@skillmount/core/adapter, so core's internals can change without breaking them. Import from an entry point; if what you " +
        'need is not exported, export it from @skillmount/core/adapter.',
      from: { path: '^packages/(express|fastify)/src/' },
      to: { path: '^packages/core/', pathNot: CORE_ENTRY_POINTS },
    },
    {
      name: 'storage-uses-storage-entry-points',
      severity: 'error',
      comment:
        'A storage package knows one storage and the two-method SkillFiles interface: of core it imports @skillmount/core/catalog and ' +
        '@skillmount/core/storage-kit, and no other package; not the root, which would load the MCP SDK with every storage. ' +
        'Import from one of them; a helper every storage needs belongs in the storage-kit.',
      from: { path: '^packages/(storage-[^/]+)/src/' },
      to: {
        path: '^packages/',
        pathNot: ['^packages/$1/', anyOf([ENTRY_POINTS['@skillmount/core/catalog'], ENTRY_POINTS['@skillmount/core/storage-kit']])],
      },
    },
    {
      name: 'packages-use-entry-points',
      severity: 'error',
      comment:
        "A package uses another one (the CLI the storages, say) only through that package's public entry points, never its src or " +
        'dist files, so each package can change inside without breaking the others. Import the package by its name.',
      from: { path: '^packages/([^/]+)/src/' },
      to: { path: '^packages/', pathNot: ['^packages/$1/', anyOf(Object.values(ENTRY_POINTS))] },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module that nothing imports and that imports nothing is dead code left from a change, or a file never wired in. ' +
        'Import it where it is used, or delete it.',
      from: { orphan: true, path: '^packages/[^/]+/src/' },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'Every import must resolve, or the rules above cannot see where it leads. Fix the path, or add the package to the ' +
        "importing package's dependencies.",
      from: { path: '^packages/[^/]+/src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports couple modules as much as the others do.
    tsPreCompilationDeps: true,
    // Packages are seen (a rule must see an import of express) but not descended into.
    doNotFollow: { path: ['node_modules', '^packages/[^/]+/dist/'] },
    tsConfig: { fileName: TSCONFIG },
    // Packages by their `exports` maps, as Node.js resolves them (the MCP SDK's subpaths exist only there).
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
