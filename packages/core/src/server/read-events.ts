/**
 * The read hooks (`onSkillLoad`, `onFileRead`): one call per file answered, with where the request
 * came from. A hook never delays or fails the answer: it is called once the answer is settled,
 * and what it throws or rejects with is reported once per hook.
 */
import { OptionError } from '../option-error.js';
import { originOf } from '../context/origin.js';
import { skillMdName } from '../uri/skill-md-name.js';
import type { SkillContext, SkillReadEvent, SkillReadHooks, SkillReadVia, SkillWarning } from '../types.js';

const SKILL_MD = '/SKILL.md';

/** What the service knows of one answered read. */
export interface AnsweredRead {
  uri: string;
  bytes: number;
  via: SkillReadVia;
  /** The skill holding the file, when the source can say without being asked again. */
  skill: string | undefined;
  ctx: SkillContext;
}

export class ReadEvents {
  readonly #hooks: Required<SkillReadHooks> | undefined;
  readonly #tell: (warning: SkillWarning, subject?: string) => void;

  constructor(hooks: SkillReadHooks, tell: (warning: SkillWarning, subject?: string) => void) {
    const onSkillLoad = hooks.onSkillLoad;
    const onFileRead = hooks.onFileRead;
    this.#hooks = onSkillLoad || onFileRead ? { onSkillLoad: onSkillLoad ?? noop, onFileRead: onFileRead ?? noop } : undefined;
    this.#tell = tell;
  }

  /** Whether any hook listens: when none does, nothing is computed per read. */
  get on(): boolean {
    return this.#hooks !== undefined;
  }

  /** Tell the hook of one read that was answered. */
  answered(read: AnsweredRead): void {
    const hooks = this.#hooks;
    if (!hooks) return;
    const load = read.via === 'well-known' || read.uri.endsWith(SKILL_MD);
    const origin = read.via === 'well-known' ? undefined : originOf(read.ctx);
    const event: SkillReadEvent = {
      skill: read.skill ?? skillMdName(read.uri),
      uri: read.uri,
      bytes: read.bytes,
      via: read.via,
      era: origin?.era,
      client: origin?.client,
      ctx: read.ctx,
    };
    const name = load ? 'onSkillLoad' : 'onFileRead';
    const failed = (error: unknown) =>
      this.#tell(
        {
          code: 'read-hook-failed',
          uri: read.uri,
          message:
            `the ${name} hook failed for ${read.uri}: ${error instanceof Error ? error.message : String(error)}; ` +
            'the read was answered (reported once per hook)',
        },
        name,
      );
    try {
      const result = hooks[name](event);
      if (result && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).then(undefined, failed);
    } catch (error) {
      failed(error);
    }
  }
}

/** The read hooks of `attach`'s options, checked. */
export function checkReadHooks(options: SkillReadHooks, packageName = 'skillmount'): SkillReadHooks {
  for (const name of ['onSkillLoad', 'onFileRead'] as const) {
    const hook = options[name];
    if (hook !== undefined && typeof hook !== 'function') {
      throw new OptionError('invalid-type', name, `must be a function (event) => void, got ${typeof hook}`, packageName);
    }
  }
  return {
    ...(options.onSkillLoad ? { onSkillLoad: options.onSkillLoad } : {}),
    ...(options.onFileRead ? { onFileRead: options.onFileRead } : {}),
  };
}

function noop(): void {}
