/**
 * Runs a complete example app from a package README as a user would (`node own-route.mjs`), in a
 * child process: the code block is taken from the README as written, with only the skills folder
 * pointed at examples/skills and the port set to 0.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES } from './skills-suite.js';
import { startChildServer } from './child-server.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const LISTENING = /listening (?:at|on) (http:\/\/127\.0\.0\.1:\d+)/;

/** The code block of `packages/<pkg>/README.md` whose first line is `// <file> — …`. */
export function readmeExample(pkg: string, file: string): string {
  const readme = readFileSync(path.join(REPO, 'packages', pkg, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```(?:js|ts)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const found = blocks.filter((code) => code.startsWith(`// ${file} `));
  if (found.length !== 1) throw new Error(`packages/${pkg}/README.md has ${found.length} code blocks starting "// ${file} ", expected one`);
  return found[0]!;
}

/** Replace `from` with `to` exactly once: a README that no longer reads as expected fails here, not later. */
function replaceOnce(code: string, from: string, to: string, where: string): string {
  const count = code.split(from).length - 1;
  if (count !== 1) throw new Error(`${where}: expected ${JSON.stringify(from)} once, found it ${count} times`);
  return code.replace(from, to);
}

export interface ReadmeApp {
  /** The example's MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** What the child wrote to stderr so far (console warnings). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the child is gone. */
  stop(): Promise<void>;
}

export async function startReadmeExample(pkg: 'fastify' | 'express', file: string): Promise<ReadmeApp> {
  const where = `packages/${pkg}/README.md ${file}`;
  let code = readmeExample(pkg, file);
  code = replaceOnce(code, "fsStorage('./skills')", `fsStorage(${JSON.stringify(EXAMPLES)})`, where);
  code = pkg === 'fastify' ? replaceOnce(code, 'port: 3000', 'port: 0', where) : replaceOnce(code, 'app.listen(3000,', 'app.listen(0,', where);
  // Inside the repository (.tmp is ignored), so its imports resolve to the workspace's packages.
  const dir = path.join(REPO, '.tmp', 'readme-examples');
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
