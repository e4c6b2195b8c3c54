/**
 * A list of trusted public keys, checked where it is given (a client's `trustedKeys`, a catalog's
 * `trust.keys`, the CLI's --trust files, a verifier's option): a wrong key is an OptionError naming
 * it, rather than every skill it signed reported as signed by a key nobody trusts.
 */
import { describeValue, type OptionFail, optionFail } from '../option-checks.js';
import { codePoint, controlCharacterIn } from '../text/escape.js';
import { publicKeyProblem, type TrustedKey } from './keys.js';

const KEY_FIX = 'give the .pub file `skillmount keygen` writes (skillmount-signing.pub)';
const NAME_RULE = "must be a non-empty string naming the key (results report it as the signer: the key file's name, say)";

/** Longest key name accepted, in UTF-16 code units: it is printed with every signed result. */
const MAX_KEY_NAME_LENGTH = 256;

/** Why a key's name cannot be reported as a signer (in logs, terminals, a host's UI), or undefined. */
function nameProblem(name: string): string | undefined {
  if (name.length > MAX_KEY_NAME_LENGTH) return `is ${name.length} characters long, over ${MAX_KEY_NAME_LENGTH}`;
  const control = controlCharacterIn(name);
  // A log line or terminal that shows the signer would act on these, or show another name.
  if (control !== undefined) return `contains ${codePoint(control)}, a control or bidirectional character`;
  if (!name.isWellFormed()) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

/** A value as a refusal shows it: PEM text only by kind, since it may be a private key given by mistake. */
const shown = (value: unknown): string => (typeof value === 'string' && value.includes('-----') ? 'the text of a PEM file' : describeValue(value));

/** {@link checkTrustedKeys} with the caller's `fail`, so an option error names the caller's package. */
export function trustedKeysOf(keys: unknown, option: string, fail: OptionFail): readonly TrustedKey[] {
  if (!Array.isArray(keys)) {
    fail(
      keys === undefined ? 'missing-option' : 'invalid-type',
      option,
      `must be an array of { name, publicKey }, got ${shown(keys)}; ` +
        'give the public keys whose signatures to accept (the .pub files `skillmount keygen` writes)',
    );
  }
  const named = new Map<string, number>();
  const checked: TrustedKey[] = [];
  // By index, not map(): a hole in the array is a missing key, not one to skip.
  for (let i = 0; i < keys.length; i++) {
    const key: unknown = keys[i];
    const at = `${option}[${i}]`;
    if (typeof key !== 'object' || key === null || Array.isArray(key)) fail('invalid-type', at, `must be an object { name, publicKey }, got ${shown(key)}`);
    const { name, publicKey } = key as Partial<Record<keyof TrustedKey, unknown>>;
    if (typeof name !== 'string' || name === '') fail(name === '' ? 'invalid-value' : 'invalid-type', `${at}.name`, `${NAME_RULE}, got ${shown(name)}`);
    const problem = nameProblem(name);
    if (problem)
      fail('invalid-value', `${at}.name`, `${problem}: give a printable name of at most ${MAX_KEY_NAME_LENGTH} characters, such as the key file's name`);
    const first = named.get(name);
    if (first !== undefined) {
      fail(
        'invalid-value',
        `${at}.name`,
        `${shown(name)} names two keys (${option}[${first}] too): give each key its own name, so a result says which one signed`,
      );
    }
    named.set(name, i);
    // publicKeyProblem never quotes the text: a private key given by mistake stays out of logs.
    const keyProblem = publicKeyProblem(publicKey);
    if (keyProblem) fail(typeof publicKey === 'string' ? 'invalid-value' : 'invalid-type', `${at}.publicKey`, `${keyProblem}; ${KEY_FIX}`);
    checked.push(Object.freeze({ name, publicKey: publicKey as string }));
  }
  return Object.freeze(checked);
}

/**
 * The public keys to trust, checked as `SkillsClient`, `SkillCatalog`'s `trust.keys` and
 * `verifySkill` check them: an array of `{ name, publicKey }`, each name a non-empty, printable
 * string of at most 256 characters that no other key has (results report it as the signer), each
 * `publicKey` the SPKI PEM of an ECDSA P-256 key (the `.pub` file `skillmount keygen` writes). Returns a frozen copy, so a later change to the
 * caller's array changes nothing. No Node.js built-in and no WebCrypto: it runs in browsers, and
 * at once, where the keys are read (a host's settings, say), rather than on a first verification.
 *
 * @param keys The keys as given (checked whatever their type).
 * @param option The option's name in an error: `trustedKeys` (the default) gives `trustedKeys[1].publicKey`.
 * @example
 * ```ts
 * import { checkTrustedKeys, generateSigningKey, verifySkill } from '@skillmount/core';
 *
 * const trustedKeys = checkTrustedKeys([{ name: 'acme.pub', publicKey: (await generateSigningKey()).publicKey }]);
 * const result = await verifySkill({ path: 'pdf', files: [] }, { trustedKeys });
 * result.state; // 'unsigned'
 * ```
 * @throws {OptionError} Naming `option` and the key (`trustedKeys[1].name`, `trustedKeys[1].publicKey`)
 *   and saying what to give instead: `invalid-type` for a value of the wrong type (`missing-option`
 *   for `keys` undefined), `invalid-value` for an empty, repeated or overlong name or one with a
 *   control or bidirectional character, or a text that is not an
 *   ECDSA P-256 public key (a private key, an RSA key…). A key's text is never quoted.
 */
export function checkTrustedKeys(keys: unknown, option = 'trustedKeys'): readonly TrustedKey[] {
  return trustedKeysOf(keys, option, optionFail('skillmount'));
}
