/**
 * Shared pieces for the core tests: temporary folders, small skill trees, a loopback HTTP server,
 * warning collectors and storages instrumented to observe what a catalog does with them.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { SkillFiles, SkillWarning } from '@skillmount/core';

/** A SKILL.md with the given name and description (and extra YAML lines). */
export function skillMd(name: string, description = `The ${name} skill.`, extra = '', body = `# ${name}\n`): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n${body}`;
}

/** A small tree: two top-level skills, one prefixed skill with subfolders. */
export function demoTree(): Record<string, string> {
  return {
    'git-workflow/SKILL.md': skillMd('git-workflow'),
    'git-workflow/references/commit-messages.md': '# Commit messages\n',
    'pdf-processing/SKILL.md': skillMd('pdf-processing'),
    'pdf-processing/scripts/fill_form.py': 'print("fill")\n',
    'pdf-processing/templates/invoice.md': '# Invoice\n',
    'acme/billing/refunds/SKILL.md': skillMd('refunds'),
    'acme/billing/refunds/templates/approved.md': 'Approved.\n',
  };
}

/** A temporary folder under the OS temp dir, removed by `remove()`. */
export function tempDir(prefix = 'skillmount-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Write `files` (relative `/` paths → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, ...rel.split('/'));
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Collects catalog warnings. */
export function warnings(): { list: SkillWarning[]; onWarning: (w: SkillWarning) => void } {
  const list: SkillWarning[] = [];
  return { list, onWarning: (w) => list.push(w) };
}

/** A node:http server on 127.0.0.1, port 0. `close()` also drops kept-alive connections. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Read and parse a JSON request body, as a web framework's body parser would. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? undefined : JSON.parse(text);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A storage wrapper that can be made to fail and that records what is called, and how much overlaps. */
export function instrumented(inner: SkillFiles, delayMs = 0) {
  const state = {
    failList: false,
    failRead: false,
    listCalls: 0,
    readCalls: 0,
    inFlight: 0,
    maxInFlight: 0,
    rootListsInFlight: 0,
    maxRootListsInFlight: 0,
    /** Storage calls still in flight when a walk (root listing) started; must stay 0 if walks never overlap. */
    busyAtWalkStart: [] as number[],
    walks: 0,
  };
  const track = async <T>(fn: () => Promise<T>): Promise<T> => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      if (delayMs) await sleep(delayMs);
      return await fn();
    } finally {
      state.inFlight--;
    }
  };
  const files: SkillFiles = {
    async list(dir) {
      state.listCalls++;
      if (dir === '') {
        state.walks++;
        state.busyAtWalkStart.push(state.inFlight);
        state.rootListsInFlight++;
        state.maxRootListsInFlight = Math.max(state.maxRootListsInFlight, state.rootListsInFlight);
      }
      // the failure switch is read when the call starts, so a test can flip it while the call waits
      const fail = state.failList;
      try {
        return await track(async () => {
          if (fail) throw new Error('storage is down (list)');
          return inner.list(dir);
        });
      } finally {
        if (dir === '') state.rootListsInFlight--;
      }
    },
    async read(p) {
      state.readCalls++;
      const fail = state.failRead;
      return track(async () => {
        if (fail) throw new Error('storage is down (read)');
        return inner.read(p);
      });
    },
  };
  return { files, state };
}
