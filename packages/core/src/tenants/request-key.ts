/**
 * The tenant of a request: the app's `key(ctx)`, checked against the key rules. A refused key is
 * reported once (a client repeating it does not flood the log) and served as no tenant.
 */
import { describeError } from '../text/error-text.js';
import { SkillProtocolError, internalError } from '../errors.js';
import type { SkillContext, SkillWarning } from '../types.js';
import { tellFor } from '../warnings/told.js';
import { showKey, tenantKeyProblem } from './key.js';
import type { TenantKeyFunction } from './types.js';

const KEY_FAILED = 'Could not tell which tenant this request belongs to; try again later';

export class TenantKeys {
  readonly #key: TenantKeyFunction;
  /** A refused key is told once per key (`tenant-key-refused` in warnings/codes.ts), so a client repeating one does not flood the log. */
  readonly #warn: (warning: SkillWarning, subject?: string) => void;

  constructor(key: TenantKeyFunction, warn: (warning: SkillWarning) => void) {
    this.#key = key;
    this.#warn = tellFor(this, warn);
  }

  /**
   * The checked key of `ctx`; `undefined` for no tenant or a refused key. `quiet`: a throw is not
   * reported (a server subscribing, whose context may lack what a request has).
   */
  async of(ctx: SkillContext, quiet = false): Promise<string | undefined> {
    let raw: unknown;
    try {
      raw = await this.#key(ctx);
    } catch (error) {
      if (error instanceof SkillProtocolError || quiet) throw error; // the app chose the answer
      this.#warn({ code: 'tenant-key-failed', message: `the tenant key function threw (the request gets -32603): ${describeError(error)}` });
      throw Object.assign(internalError(KEY_FAILED), { cause: error });
    }
    if (raw === undefined || raw === null) return undefined;
    const problem = tenantKeyProblem(raw);
    if (problem) {
      this.#refuse(raw, problem);
      return undefined;
    }
    return raw as string;
  }

  #refuse(raw: unknown, problem: string): void {
    const id = typeof raw === 'string' ? raw : `<${raw === null ? 'null' : typeof raw}>`;
    this.#warn(
      {
        code: 'tenant-key-refused',
        message: `tenant key ${showKey(raw)} refused (${problem}): its requests are served as having no tenant and see no skills`,
      },
      id,
    );
  }
}
