import { parseArgs, type ParseArgsConfig } from 'node:util';
import { plural } from './terminal/words.js';

/** A mistake on the command line: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };

/** node:util parseArgs, with its errors turned into UsageErrors and exactly one positional. */
export function parseCommand<O extends Options>(argv: string[], options: O, what: string): { values: Values<O>; location: string } {
  const { values, positionals } = parseWithPositionals(argv, options, [what]);
  return { values, location: positionals[0]! };
}

/** node:util parseArgs, with its errors turned into UsageErrors and exactly the named positionals. */
export function parseWithPositionals<O extends Options>(argv: string[], options: O, names: string[]): { values: Values<O>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, allowNegative: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== names.length) {
    const expected = names.length === 1 ? `exactly one ${names[0]}` : names.map((n) => `<${n}>`).join(' ');
    throw new UsageError(`expected ${expected}, got ${plural(parsed.positionals.length, 'argument')}`);
  }
  return { values: parsed.values as Values<O>, positionals: parsed.positionals };
}

export function integerOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}
