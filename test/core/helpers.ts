/**
 * Shared pieces for the core tests: a small skill tree, reading a JSON body,
 * warning collectors and storages instrumented to observe what a catalog does with them.
 */
import type { IncomingMessage } from 'node:http';
import type { SkillFiles, SkillWarning } from '@skillmount/core';
import { skillMd } from '../support/skill-md.js';
import { sleep } from '../support/wait.js';

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

/** Collects catalog warnings. */
export function warnings(): { list: SkillWarning[]; onWarning: (w: SkillWarning) => void } {
  const list: SkillWarning[] = [];
  return { list, onWarning: (w) => list.push(w) };
}

/** Read and parse a JSON request body, as a web framework's body parser would. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? undefined : JSON.parse(text);
}

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
