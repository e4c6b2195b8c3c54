// Test files whose outcome does not depend on the Node.js major or the MCP SDK release the suite
// runs on: they read the repository's files, build the docs site, judge the tarballs, or run the
// benchmark's own arithmetic and smoke run. A CI run of the suite on a second Node.js or SDK passes
// `--skip-once` to scripts/test.mjs and leaves them to the README run, which runs every file.
// A file that starts our packages on the Node.js under test (a server, the CLI, a consumer app)
// does not belong here.
export const ONCE_PER_CI = [
  // The benchmark: its charts, its fit, its smoke run, and the build guard's ratio against the SDK v2.
  'test/bench/',
  // Packs the tarballs, installs them with npm and type-checks a consumer app with tsc.
  'test/consumer/',
  // The docs site's build (VitePress), the generated API reference (TypeDoc), links between pages.
  'test/docs/site.test.ts',
  'test/docs/api-reference.test.ts',
  'test/docs/readme-links.test.ts',
  // publint, Are the Types Wrong, the release and workflow files, the versions script.
  'test/packaging/tarballs.test.ts',
  'test/packaging/release-config.test.ts',
  'test/packaging/workflows.test.ts',
  'test/packaging/versions.test.ts',
  'test/packaging/import-boundaries.test.ts',
];

/** True when `file` (relative to the repository root) is run once per CI run. */
export const oncePerCi = (file) => ONCE_PER_CI.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
