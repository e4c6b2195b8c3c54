/** The catalog's `trust` option, checked once, when the catalog (or an adapter, or a tenants router) is created. */
import { describeValue, type OptionFail } from '../option-checks.js';
import { publicKeyProblem, type TrustedKey } from '../trust/keys.js';
import type { SkillTrustOptions } from '../types.js';

export interface TrustSettings {
  keys: readonly TrustedKey[];
  requireSignature: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const KEY_FIX = 'give the public key file `skillmount keygen` writes (skillmount-signing.pub)';

/** Undefined when the option is absent; the keys are copied, so a caller changing its array later changes nothing. */
export function checkTrust(trust: SkillTrustOptions | undefined, fail: OptionFail): TrustSettings | undefined {
  if (trust === undefined) return undefined;
  if (!isObject(trust) || Array.isArray(trust)) {
    fail('invalid-type', 'trust', `must be an object { keys: [{ name, publicKey }], requireSignature? }, got ${describeValue(trust)}`);
  }
  if (!Array.isArray(trust.keys)) {
    fail(
      trust.keys === undefined ? 'missing-option' : 'invalid-type',
      'trust.keys',
      `must be an array of { name, publicKey } (the public keys whose signatures to accept), got ${describeValue(trust.keys)}`,
    );
  }
  if (trust.requireSignature !== undefined && typeof trust.requireSignature !== 'boolean') {
    fail('invalid-type', 'trust.requireSignature', `must be true or false, got ${describeValue(trust.requireSignature)}`);
  }
  const requireSignature = trust.requireSignature === true;
  if (requireSignature && trust.keys.length === 0) {
    fail('invalid-value', 'trust.keys', 'is empty, so requireSignature would refuse every skill: give at least one public key to trust');
  }
  const names = new Set<string>();
  const keys = trust.keys.map((key, i) => {
    const at = `trust.keys[${i}]`;
    if (!isObject(key)) fail('invalid-type', at, `must be an object { name, publicKey }, got ${describeValue(key)}`);
    if (typeof key.name !== 'string' || key.name === '') {
      fail(
        'invalid-type',
        `${at}.name`,
        `must be a non-empty string (what results report as the signer, e.g. the key file's name), got ${describeValue(key.name)}`,
      );
    }
    if (names.has(key.name))
      fail('invalid-value', `${at}.name`, `${describeValue(key.name)} names two keys: give each key its own name, so a result says which one signed`);
    names.add(key.name);
    // Never quoted: a private key given by mistake must not reach a log.
    const problem = publicKeyProblem(key.publicKey);
    if (problem)
      fail(
        typeof key.publicKey === 'string' ? 'invalid-value' : 'invalid-type',
        `${at}.publicKey`,
        `(the key named ${describeValue(key.name)}) ${problem}; ${KEY_FIX}`,
      );
    return Object.freeze({ name: key.name, publicKey: key.publicKey as string });
  });
  return { keys: Object.freeze(keys), requireSignature };
}
