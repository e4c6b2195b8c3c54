import { check } from './commands/check.js';
import { get } from './commands/get.js';
import { ls } from './commands/ls.js';
import { serve } from './commands/serve.js';
import { UsageError } from './usage.js';

const HELP = `skillmount — serve, check and publish Agent Skills over MCP

Usage:
  skillmount serve <folder> [options]   serve a skills folder as an MCP endpoint
  skillmount check <folder> [options]   report every problem in a skills folder
  skillmount ls <url> [--json]          list the skills an MCP server serves
  skillmount get <url> <skill-uri> [file]
                                        print one verified file of a skill (default SKILL.md)

serve options:
  --port <n>            port to listen on (default 3000; 0 picks a free one)
  --host <addr>         address to bind (default 127.0.0.1)
  --path <path>         endpoint path (default /mcp)
  --framework <name>    fastify or express (default fastify)
  --prefix <segments>   organisational prefix for every skill URI, e.g. acme/billing
  --page-size <n>       skills per skills/list page (default 100)
  --stateless           no MCP sessions (a server per request; no change notifications)
  --no-watch            do not reload when the folder changes
  --strict              refuse to start when any skill has a problem

check options:
  --prefix <segments>   as for serve
  --json                print the result as JSON

ls and get options:
  --header "Name: value"  send this HTTP header (repeatable), e.g. an Authorization header

Run "skillmount <command> --help" for this text.`;

/** Run the CLI; resolves to the exit code, or undefined for a server that keeps running. */
export async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      console.log(HELP);
      return command === undefined ? 1 : 0;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(HELP);
      return 0;
    }
    if (command === 'serve') return await serve(rest);
    if (command === 'check') return await check(rest);
    if (command === 'ls') return await ls(rest);
    if (command === 'get') return await get(rest);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`skillmount: ${error.message}\nRun "skillmount --help" for usage.`);
      return 2;
    }
    throw error;
  }
}
