/**
 * Brands that let `instanceof` hold across copies of this package. The ESM and CJS builds (and
 * each subpath's CJS bundle) hold their own copy of every class, so an error thrown by one copy
 * fails a prototype check made with another. A branded class marks its prototype with a
 * `Symbol.for('@skillmount/…')` key, which every copy shares, and answers `instanceof` by it.
 *
 * A brand says "made by a skillmount class of that name", not "trusted": code that must trust an
 * object (skip re-validating a catalog's entries, say) keeps its own registry.
 */

/** The static key holding a class's brand symbol; own to the branded class, so a subclass without a brand of its own is checked the ordinary way. */
const BRAND_KEY = Symbol.for('@skillmount/brand');

type Branded = { [BRAND_KEY]?: symbol; prototype: object };

/** Brand `cls` as `name` (e.g. `'@skillmount/core/SkillCatalog'`); call from the class's static block. */
export function brand(cls: Branded, name: string): void {
  const symbol = Symbol.for(name);
  Object.defineProperty(cls, BRAND_KEY, { value: symbol });
  Object.defineProperty(cls.prototype, symbol, { value: true });
}

const ordinaryInstanceOf = Function.prototype[Symbol.hasInstance];

/**
 * The `static [Symbol.hasInstance]` of a branded class: the prototype chain first, then the
 * brand of `cls` itself (inherited by subclasses' prototypes, so a subclass instance answers
 * for its parent too).
 */
export function isBranded(cls: Branded, value: unknown): boolean {
  if (ordinaryInstanceOf.call(cls, value)) return true;
  if (!Object.hasOwn(cls, BRAND_KEY)) return false;
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  return (value as Record<symbol, unknown>)[cls[BRAND_KEY]!] === true;
}
