/** The catalog's `trust` option, checked once, when the catalog (or an adapter, or a tenants router) is created. */
import { describeValue, type OptionFail } from '../option-checks.js';
import type { TrustedKey } from '../trust/keys.js';
import { trustedKeysOf } from '../trust/trusted-keys.js';
import type { SkillTrustOptions } from '../types.js';

export interface TrustSettings {
  keys: readonly TrustedKey[];
  requireSignature: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Undefined when the option is absent; the keys are copied, so a caller changing its array later changes nothing. */
export function checkTrust(trust: SkillTrustOptions | undefined, fail: OptionFail): TrustSettings | undefined {
  if (trust === undefined) return undefined;
  if (!isObject(trust) || Array.isArray(trust)) {
    fail('invalid-type', 'trust', `must be an object { keys: [{ name, publicKey }], requireSignature? }, got ${describeValue(trust)}`);
  }
  const keys = trustedKeysOf(trust.keys, 'trust.keys', fail);
  if (trust.requireSignature !== undefined && typeof trust.requireSignature !== 'boolean') {
    fail('invalid-type', 'trust.requireSignature', `must be true or false, got ${describeValue(trust.requireSignature)}`);
  }
  const requireSignature = trust.requireSignature === true;
  if (requireSignature && keys.length === 0) {
    fail('invalid-value', 'trust.keys', 'is empty, so requireSignature would refuse every skill: give at least one public key to trust');
  }
  return { keys, requireSignature };
}
