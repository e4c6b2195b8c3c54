import { availableParallelism } from 'node:os';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { checkFolders, checksOf, verifyFolders, type Checked } from './check.js';
import { readFiles, walkFolders, type Folder, type Listed, type Walked } from './jobs.js';
import { treeError, type Reply, type Request, type TreeError } from './messages.js';

/** Where the jobs of a listing run: worker threads, or the calling thread in slices. `line`: see `settleLine`. */
export interface TreeRunner {
  /** How many jobs it runs at once. */
  readonly parallelism: number;
  /** See `walkFolders`. */
  folders(root: string, folders: Folder[], read: boolean, line: number): Promise<Walked[]>;
  /** See `readFiles`. */
  files(root: string, files: FileToRead[], line: number): Promise<Listed[]>;
  /** See `checkFolders`. */
  check(root: string, records: string, line: number): Promise<Checked[]>;
  /** See `verifyFolders`. */
  verify(root: string, records: string): Promise<boolean>;
}

export interface FileToRead {
  path: string;
  content: boolean;
}

/** A job that failed: carries what crossed the thread boundary. */
export class TreeJobError extends Error {
  readonly detail: TreeError;

  constructor(detail: TreeError) {
    super(detail.message);
    this.detail = detail;
  }
}

/** Worker threads could not start here (a bundle without the worker file, a locked-down runtime). */
export class WorkersUnavailable extends Error {}

/**
 * On the calling thread, in slices: a few folders or files at a time, then other work runs.
 * Slower than workers, but never holds the event loop for long.
 */
export const inlineRunner: TreeRunner = {
  parallelism: 1,
  async folders(root, folders, read, line) {
    const walked: Walked[] = [];
    for (let i = 0; i < folders.length; i += 2) {
      for (const one of inline(() => walkFolders(root, folders.slice(i, i + 2), read, line))) walked.push(one);
      await yieldToEventLoop();
    }
    return walked;
  },
  async files(root, files, line) {
    const items: Listed[] = [];
    for (let i = 0; i < files.length; i += 8) {
      for (const item of inline(() => readFiles(root, files.slice(i, i + 8), line))) items.push(item);
      await yieldToEventLoop();
    }
    return items;
  },
  // A check is an lstat per folder and per file it holds: more folders per slice than a walk.
  async check(root, records, line) {
    const checks = checksOf(records);
    const checked: Checked[] = [];
    for (let i = 0; i < checks.length; i += 64) {
      for (const one of inline(() => checkFolders(root, checks.slice(i, i + 64), line))) checked.push(one);
      await yieldToEventLoop();
    }
    return checked;
  },
  async verify(root, records) {
    const checks = checksOf(records);
    for (let i = 0; i < checks.length; i += 64) {
      if (!inline(() => verifyFolders(root, checks.slice(i, i + 64)))) return false;
      await yieldToEventLoop();
    }
    return true;
  },
};

/**
 * Jobs on `first`, and each one `first` refuses because its threads cannot start here on
 * `second`: a listing already under way goes on, whatever it has handed on stays valid.
 */
export function withFallback(first: TreeRunner, second: TreeRunner): TreeRunner {
  const onFirst = <T>(job: (runner: TreeRunner) => Promise<T>): Promise<T> =>
    job(first).catch((error: unknown) => {
      if (error instanceof WorkersUnavailable) return job(second);
      throw error;
    });
  return {
    parallelism: first.parallelism,
    folders: (root, folders, read, line) => onFirst((runner) => runner.folders(root, folders, read, line)),
    files: (root, files, line) => onFirst((runner) => runner.files(root, files, line)),
    check: (root, records, line) => onFirst((runner) => runner.check(root, records, line)),
    verify: (root, records) => onFirst((runner) => runner.verify(root, records)),
  };
}

function inline<T>(job: () => T): T {
  try {
    return job();
  } catch (error) {
    throw new TreeJobError(treeError(error));
  }
}

interface Task {
  request: Request;
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  task?: Task;
  /** It has answered once: a later failure is the job's, not the runtime's. */
  proven: boolean;
}

/**
 * A small pool of worker threads shared by every folder storage of the process. Workers start
 * on demand, are referenced only while they have work (an idle pool never keeps a process
 * alive), and end after `idleMs` without work: long enough that loads in a burst (tenants, a
 * reload after a change) find them warm, short enough not to hold their memory for long.
 */
export class WorkerPool implements TreeRunner {
  readonly #size: number;
  readonly #idleMs: number;
  readonly #script: URL;
  readonly #slots: Slot[] = [];
  readonly #queue: Task[] = [];
  #nextId = 1;
  #idleTimer: NodeJS.Timeout | undefined;
  #endSoon = false;
  #unavailable: Error | undefined;

  get parallelism(): number {
    return this.#size;
  }

  constructor(script: URL, size = Math.max(1, Math.min(4, availableParallelism())), idleMs = 10_000) {
    this.#script = script;
    this.#size = size;
    this.#idleMs = idleMs;
  }

  // Folders go to the front of the queue: each one listed may bring more work for every thread.
  async folders(root: string, folders: Folder[], read: boolean, line: number): Promise<Walked[]> {
    const reply = await this.#submit({ id: this.#nextId++, type: 'folders', root, folders, read, line }, true);
    return 'walked' in reply ? reply.walked : [];
  }

  async files(root: string, files: FileToRead[], line: number): Promise<Listed[]> {
    const reply = await this.#submit({ id: this.#nextId++, type: 'files', root, files, line }, false);
    return 'items' in reply ? reply.items : [];
  }

  async check(root: string, records: string, line: number): Promise<Checked[]> {
    const reply = await this.#submit({ id: this.#nextId++, type: 'check', root, records, line }, true);
    return 'checked' in reply ? reply.checked : [];
  }

  async verify(root: string, records: string): Promise<boolean> {
    const reply = await this.#submit({ id: this.#nextId++, type: 'verify', root, records }, true);
    return 'same' in reply && reply.same;
  }

  #submit(request: Request, first: boolean): Promise<Reply> {
    if (this.#unavailable) return Promise.reject(new WorkersUnavailable(this.#unavailable.message, { cause: this.#unavailable }));
    return new Promise((resolve, reject) => {
      const task = { request, resolve, reject };
      if (first) this.#queue.unshift(task);
      else this.#queue.push(task);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    clearTimeout(this.#idleTimer);
    // A listing starts with one folder, and its subfolders follow a millisecond later: start a second
    // thread with the first, rather than boot it only then.
    if (this.#slots.length === 0 && this.#queue.length > 0 && this.#size > 1) this.#start();
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => !s.task);
      if (!slot && this.#slots.length < this.#size) slot = this.#start();
      if (!slot) break;
      const task = this.#queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage(task.request);
    }
    if (this.#slots.every((s) => !s.task)) {
      // A timer even when ending soon: a listing under way queues its next jobs just after a reply.
      this.#idleTimer = setTimeout(() => void this.close(), this.#endSoon ? 0 : this.#idleMs);
      this.#idleTimer.unref();
    }
  }

  /** True while a thread is running: a job now costs no thread start. */
  get warm(): boolean {
    return this.#slots.length > 0;
  }

  /**
   * End the threads as soon as they are idle rather than after `idleMs`: after a large first
   * listing, the catalog build that follows needs the memory more than a next listing would gain
   * from warm threads. Idle now, they end now (the build may hold the event loop for a while);
   * else they end once the work in hand is done.
   */
  endWhenIdle(): void {
    if (this.#queue.length === 0 && this.#slots.every((s) => !s.task)) void this.close();
    else this.#endSoon = true;
  }

  /** A new worker, or undefined when none can start (every queued job is then refused). */
  #start(): Slot | undefined {
    let worker: Worker;
    try {
      // Plain compiled code: no loader hooks or flags of the host process. Small young generations:
      // a worker's garbage is short-lived, and every megabyte counts in the process's RSS.
      worker = new Worker(this.#script, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 2 } });
    } catch (error) {
      this.#fail(error as Error);
      return undefined;
    }
    const slot: Slot = { worker, proven: false };
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const task = slot.task;
      if (!task || task.request.id !== reply.id) return;
      slot.proven = true;
      slot.task = undefined;
      worker.unref();
      if ('error' in reply) task.reject(new TreeJobError(reply.error));
      else task.resolve(reply);
      this.#dispatch();
    });
    const lost = (error: Error) => {
      const index = this.#slots.indexOf(slot);
      if (index < 0) return;
      this.#slots.splice(index, 1);
      const task = slot.task;
      slot.task = undefined;
      // A worker that never answered could not start at all: say so, so the caller can fall back.
      if (!slot.proven) this.#fail(error);
      task?.reject(slot.proven ? error : new WorkersUnavailable(error.message, { cause: error }));
      this.#dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`a listing worker thread exited (code ${code})`)));
    this.#slots.push(slot);
    return slot;
  }

  /** No worker can start: every queued job is refused so its caller can fall back. */
  #fail(error: Error): void {
    this.#unavailable = error;
    for (const task of this.#queue.splice(0)) task.reject(new WorkersUnavailable(error.message, { cause: error }));
  }

  /** End every worker now (jobs in flight fail); a later job starts new ones. */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    this.#endSoon = false;
    const slots = this.#slots.splice(0);
    await Promise.all(
      slots.map((slot) => {
        slot.task?.reject(new Error('the listing worker threads were closed'));
        slot.task = undefined;
        return slot.worker.terminate();
      }),
    );
  }
}
