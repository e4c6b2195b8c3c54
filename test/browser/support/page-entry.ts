/**
 * What the browser page runs: the built `@skillmount/core/client` over the SDK's own client and
 * Streamable HTTP transport, bundled for the browser. It lists every skill, reads and verifies
 * every listed file, checks that a changed digest is refused (and, by default, that the entry is
 * asked for again and the read verified against it), and searches (ranked in the page: the server
 * has no search_skills tool), all with browser APIs only.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SKILL_DIGEST_PATTERN, SkillsClient, SkillVerificationError, type SkillEntry } from '@skillmount/core/client';

export interface PageReport {
  nodeGlobals: { Buffer: boolean; process: boolean; require: boolean };
  secureContext: boolean;
  supported: boolean;
  skills: string[];
  files: { uri: string; verified: boolean; size: number; digest: string; text: boolean }[];
  frontmatterChecked: string[];
  tampered: { reason: string; message: string } | string;
  /** The same read by a client that asks for the entry again: the entry it read against, and whether the file verified. */
  refreshed: { skill: string | undefined; expected: string; verified: boolean } | string;
  searched: { ranked: string; uris: string[] };
}

// The page's own globals: the program is type-checked with Node's types, not the DOM's.
declare const location: { readonly href: string };
declare const isSecureContext: boolean;

const hex = async (bytes: Uint8Array) => {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${[...hash].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
};

async function verifyAll(endpoint: string): Promise<PageReport> {
  const scope = globalThis as Record<string, unknown>;
  const client = new Client({ name: 'browser-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint, location.href)));
  try {
    const skills = new SkillsClient(client);
    const { skills: entries } = await skills.list();
    const report: PageReport = {
      nodeGlobals: { Buffer: 'Buffer' in scope, process: 'process' in scope, require: 'require' in scope },
      secureContext: isSecureContext,
      supported: skills.supported,
      skills: entries.map((e) => e.uri),
      files: [],
      frontmatterChecked: [],
      tampered: 'not tried',
      refreshed: 'not tried',
      searched: { ranked: 'not tried', uris: [] },
    };
    for (const entry of entries) {
      for (const resource of entry.resources as { uri: string }[]) {
        const file = await skills.read(entry, resource.uri);
        report.files.push({
          uri: file.uri,
          verified: file.verified,
          size: file.bytes.byteLength,
          digest: await hex(file.bytes),
          text: typeof file.text === 'string',
        });
        if (file.frontmatter) report.frontmatterChecked.push(entry.uri);
      }
    }
    // The same read under an entry whose digest was changed must fail in the browser too.
    const first = entries[0]!;
    const listed = (first.resources as { uri: string; digest: string; size: number }[])[0]!;
    const lie: SkillEntry = {
      ...first,
      resources: (first.resources as (typeof listed)[]).map((r) => (r === listed ? { ...r, digest: `sha256:${'0'.repeat(64)}` } : r)),
    };
    if (!SKILL_DIGEST_PATTERN.test(`sha256:${'0'.repeat(64)}`)) throw new Error('the digest pattern refused a digest');
    try {
      await new SkillsClient(client, { refresh: false }).read(lie, listed.uri);
      report.tampered = 'read succeeded';
    } catch (error) {
      report.tampered = error instanceof SkillVerificationError ? { reason: error.reason, message: error.message } : String(error);
    }
    try {
      const file = await skills.read(lie, listed.uri);
      report.refreshed = { skill: file.skill?.uri, expected: first.uri, verified: file.verified };
    } catch (error) {
      report.refreshed = String(error);
    }
    const found = await skills.search('pdf forms');
    report.searched = { ranked: found.ranked, uris: found.skills.map((e) => e.uri) };
    return report;
  } finally {
    await client.close();
  }
}

(globalThis as { verifyAll?: typeof verifyAll }).verifyAll = verifyAll;
