import { complain } from './terminal/print.js';
import { UsageError } from './usage.js';

const HELP = `skillmount — serve, check and publish Agent Skills over MCP

Usage:
  skillmount serve <folder> [options]       serve skills as an MCP endpoint
  skillmount serve <s3://…|postgres://…>    the same, from S3 or PostgreSQL (see Locations)
  skillmount check <location> [options]     report every problem in a skills tree
  skillmount publish <folder> <location> [options]
                                            upload a skills folder to S3 or PostgreSQL
  skillmount keygen <dir>                   write a signing key pair: <dir>/skillmount-signing.key
                                            (private, mode 0600) and <dir>/skillmount-signing.pub
  skillmount sign <folder> --key <file>     sign every skill under a folder (writes skill.oms.sig)
  skillmount ls <url> [--json] [--trust <file>]
                                            list the skills an MCP server serves (with --trust,
                                            each skill's signature: who signed it, or why not)
  skillmount get <url> <skill> [file]       print one verified file of a skill (default SKILL.md);
                                            <skill> is a name (git-workflow), a skill path
                                            (acme/billing/invoice-rules) or a URI (skill://…/SKILL.md)
  skillmount search <url> <query> [--json] [--limit N]
                                            the skills a server serves that match a query, best
                                            first (its search_skills tool, else ranked here)
  skillmount --version                      print the version

Locations:
  ./skills                                  a folder
  s3://bucket/prefix                        the keys under a prefix (AWS_ENDPOINT_URL_S3, AWS_REGION,
                                            AWS_ACCESS_KEY_ID, … as for any AWS SDK client)
  postgres://user@host:5432/db#namespace    a namespace of a PostgreSQL table (postgresql:// too)

serve options:
  --port <n>            port to listen on (default 3000; 0 picks a free one)
  --host <addr>         address to bind (default 127.0.0.1)
  --path <path>         endpoint path (default /mcp)
  --framework <name>    fastify or express (default fastify)
  --prefix <segments>   organisational prefix for every skill URI, e.g. acme/billing
  --page-size <n>       skills per skills/list page (default 100)
  --retain-ms <ms>      after a reload, keep serving the files a client listed before it for this
                        long, when it names their digest (default 60000; 0: none)
  --stateless           no MCP sessions (a server per request; no change notifications)
  --no-watch            do not reload when the storage changes
  --poll-interval <ms>  S3: how often to look for changes (default 30000)
  --full-list-interval <ms|never>
                        S3 with a manifest: list the whole prefix at least this often, so objects
                        written by tools other than publish are seen (default 300000; 0: every poll;
                        never: only when the manifest changes)
  --table <name>        PostgreSQL: the table (default skillmount_files)
  --strict              refuse to start when any skill has a problem
  --allowed-hosts <a,b> Host names the server answers (others get 403); without it,
                        a non-loopback --host serves any Host, and a warning says so
  --request-timeout <ms>
                        longest a request may take to arrive, headers and body (default 30000)
  --instructions <auto|always|off>
                        name the skills in the server's instructions: for clients without the
                        Skills extension (auto, the default), for every client, or never
  --cors <origin>       let browser pages from this origin call the endpoint (CORS and the Origin
                        check), e.g. https://app.example.com; repeatable; * is refused
  --tenant-header <name>
                        one catalog per tenant, named by this request header: <folder>/<tenant>,
                        the S3 prefix <prefix><tenant>/ or the PostgreSQL namespace <tenant>.
                        Only behind a proxy that sets the header itself: the server believes it
  --max-tenants <n>     with --tenant-header: tenants' catalogs kept in memory (default 50)
  --tools               add the read_skill tool, for hosts that show tools but not resources
  --prompts             serve each skill as an MCP prompt, for hosts with prompt slash commands
  --search              add the search_skills tool (an index of names and descriptions per catalog)
  --well-known          publish /.well-known/agent-skills/index.json for \`npx skills add <url>\`
                        (one-file skills as SKILL.md, others as .zip; as public as the endpoint)
  --health <path>       readiness at <path> (200 ready or degraded, 503 stopping) and liveness at
                        <path>/live, e.g. --health /healthz; no Host check, so probes may use the IP
  --log-format <f>      text (default) or json: one JSON object per line on stdout for the start,
                        each reload, the stop and every warning (a warning about the skills is
                        printed when it appears or changes, not again on every reload)
  --trust <file>        a public key (skillmount-signing.pub) whose signatures to accept; repeatable.
                        Every skill's skill.oms.sig is verified at each load and reload; an invalid
                        or untrusted one is warned about (signature-invalid, signature-untrusted)
  --require-signature   with --trust: serve only the skills a trusted key signed; any other skill
                        (unsigned, invalid, untrusted) is not served at all, with a warning saying why

check options:
  --prefix <segments>   as for serve
  --table <name>        as for serve
  --json                print the result as JSON (exact byte counts; limit problems carry files, bytes, limit)
  --strict              fail on warnings too (invisible or direction-changing characters in a SKILL.md)
  Each problem is printed as "<path>: <message> [<code>]", as serve prints its warnings; codes:
  frontmatter, name-mismatch, limit, skill-md-case, bad-name, unsupported, root-skill, portability,
  reserved-metadata. Warnings ("warning: …"): hidden-characters, a SKILL.md line holding characters
  a reader cannot see (its line and code points), served as published. Lengths are counted in
  characters (Unicode code points).
  --trust <file>        a public key (skillmount-signing.pub) whose signatures to trust; repeatable.
                        Every skill.oms.sig found is verified: an invalid one fails the check (codes:
                        malformed-bundle, copied-signature, file-added, file-removed, changed-file,
                        changed-frontmatter, algorithm-mismatch, bad-signature, key-hint-mismatch),
                        and with --trust, one signed by a key not given (untrusted-key)

sign options:
  --key <file>          the private key to sign with (skillmount-signing.key from keygen); required

publish options:
  --delete              remove stored files that are no longer in the folder
  --dry-run             compare and report; write nothing
  --force               publish the valid skills even when others have problems
  --strict              refuse to publish when check would warn (invisible characters in a SKILL.md)
  --table <name>        PostgreSQL: the table, created when missing (default skillmount_files)
  --concurrency <n>     requests in flight (default 8)
  --sign <file>         sign every skill with this private key (skillmount-signing.key) over exactly
                        the files uploaded, so no republish leaves a stale skill.oms.sig: one that
                        no longer verifies with this key is replaced (in the folder too), a current
                        one is kept as it is

ls and get options:
  --header "Name: value"  send this HTTP header (repeatable), e.g. an Authorization header
  --well-known          read a site's /.well-known/agent-skills/index.json instead of an MCP
                        endpoint (as \`npx skills add <site>\` does); every artifact's digest is checked
  --trust <file>        a public key (skillmount-signing.pub) whose signatures to trust; repeatable
                        (rotation: give the old and the new key). Each skill's skill.oms.sig is
                        verified before any other file is read. ls shows a SIGNATURE column (a
                        "signature" field in its JSON). A skill whose signature does not verify is
                        refused (get prints nothing of it, ls exits 1); unsigned skills and other
                        keys' are shown, and read
  --require-signature   with --trust: refuse every skill not signed by one of those keys (unsigned,
                        or another key's); ls exits 1 unless every skill verifies
  A name that several skills share is refused by get, with the path and URI of each: give one of those.

search options:
  --limit <n>           results to print (default 10, at most 50)
  --json                print { skills: [{ uri, name, description }], ranked, nextCursor? } as JSON
  --header "Name: value"  as for ls and get

Run "skillmount <command> --help" for this text.`;

/**
 * Run the CLI; resolves to the exit code, or undefined for a server that keeps running.
 *
 * @example
 * ```ts
 * import { main } from 'skillmount';
 *
 * const code = await main(['check', './skills']);
 * if (code !== undefined) process.exitCode = code;
 * ```
 * @throws Nothing: a failure is printed on stderr and gives exit code 1, a usage mistake 2.
 */
export async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      console.log(HELP);
      return command === undefined ? 1 : 0;
    }
    if (command === '--version' || command === '-v' || command === 'version') {
      console.log(`skillmount ${(await import('@skillmount/core')).VERSION}`);
      return 0;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(HELP);
      return 0;
    }
    // Commands are loaded on use, so `check` does not wait for the HTTP frameworks or the AWS SDK to import.
    if (command === 'serve') return await (await import('./commands/serve.js')).serve(rest);
    if (command === 'check') return await (await import('./commands/check.js')).check(rest);
    if (command === 'ls') return await (await import('./commands/ls.js')).ls(rest);
    if (command === 'get') return await (await import('./commands/get.js')).get(rest);
    if (command === 'search') return await (await import('./commands/search.js')).search(rest);
    if (command === 'keygen') return await (await import('./commands/keygen.js')).keygen(rest);
    if (command === 'sign') return await (await import('./commands/sign.js')).sign(rest);
    if (command === 'publish') return await (await import('./commands/publish.js')).publish(rest);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError) {
      complain(`skillmount: ${error.message}\nRun "skillmount --help" for usage.`);
      return 2;
    }
    complain(`skillmount: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
