/**
 * Runs a complete example app from the documentation site as a user would (`node own-route.mjs`),
 * in a child process: the code block is taken from the page as written, with only the skills
 * folder pointed at examples/skills and the port set to 0.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES } from './skills-suite.js';
import { startChildServer } from './child-server.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const LISTENING = /listening (?:at|on) (http:\/\/127\.0\.0\.1:\d+)/;

/** The page of the site (under docs/) that holds each example file, for both adapters. */
const PAGES: Record<string, string> = {
  'own-route.mjs': 'docs/guide/existing-route.md',
  'own-route-sessions.mjs': 'docs/guide/existing-route.md',
  'cors.mjs': 'docs/guide/hosts.md',
  'analytics.mjs': 'docs/guide/analytics.md',
};

/** Where the example `file` of `@skillmount/<pkg>` is documented: `docs/guide/hosts.md cors.mjs (express)`. */
export function exampleLocation(pkg: string, file: string): string {
  return `${PAGES[file] ?? '(no page)'} ${file} (${pkg})`;
}

/** The code block of the example's page whose first line is `// <file> — …` and that imports `@skillmount/<pkg>`. */
export function docExample(pkg: string, file: string): string {
  const page = PAGES[file];
  if (!page) throw new Error(`no documentation page holds the example ${file}: add it to PAGES in test/support/doc-example.ts`);
  const markdown = readFileSync(path.join(REPO, page), 'utf8');
  const blocks = [...markdown.matchAll(/^```(?:js|ts)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const found = blocks.filter((code) => code.startsWith(`// ${file} `) && code.includes(`from '@skillmount/${pkg}'`));
  if (found.length !== 1) {
    throw new Error(`${page} has ${found.length} code blocks starting "// ${file} " that import @skillmount/${pkg}, expected one`);
  }
  return found[0]!;
}

/** Replace `from` with `to` exactly once: a README that no longer reads as expected fails here, not later. */
function replaceOnce(code: string, from: string, to: string, where: string): string {
  const count = code.split(from).length - 1;
  if (count !== 1) throw new Error(`${where}: expected ${JSON.stringify(from)} once, found it ${count} times`);
  return code.replace(from, to);
}

export interface DocApp {
  /** The example's MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** What the child wrote to stderr so far (console warnings). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the child is gone. */
  stop(): Promise<void>;
}

export async function startDocExample(pkg: 'fastify' | 'express', file: string): Promise<DocApp> {
  const where = exampleLocation(pkg, file);
  let code = docExample(pkg, file);
  code = replaceOnce(code, "fsStorage('./skills')", `fsStorage(${JSON.stringify(EXAMPLES)})`, where);
  code = pkg === 'fastify' ? replaceOnce(code, 'port: 3000', 'port: 0', where) : replaceOnce(code, 'app.listen(3000,', 'app.listen(0,', where);
  // Inside the repository (.tmp is ignored), so its imports resolve to the workspace's packages.
  const dir = path.join(REPO, '.tmp', 'doc-examples');
  mkdirSync(dir, { recursive: true });
  const script = path.join(dir, `${pkg}-${process.pid}-${Date.now()}-${file}`);
  writeFileSync(script, code);

  const removeScript = () => rmSync(script, { force: true });
  try {
    const server = await startChildServer([script], LISTENING, where, 30_000);
    const stop = async () => {
      await server.stop();
      removeScript();
    };
    return { url: `${server.ready[1]}/mcp`, stderr: server.stderr, stop };
  } catch (error) {
    removeScript();
    throw error;
  }
}
