/**
 * Where a tracer makes its span the active one around the work of a trace: `instrumentSkills()`
 * (OpenTelemetry) installs a scope, and every trace skillmount runs (./trace.ts) runs its work
 * inside it, so what the work starts (a storage call's span, an AWS SDK or `pg` span) is a child.
 * Kept on a global symbol, as diagnostics channels are global by name: the ESM and CommonJS
 * builds of this package, or two copies of it, share one.
 */
const SCOPE = Symbol.for('skillmount.telemetry.scope');

/** Runs `fn` in the context the tracer keeps for the trace `message` began. */
export type TraceScope = <T>(message: object, fn: () => T) => T;

type Holder = { [SCOPE]?: TraceScope };

/** Run `fn` inside the installed scope for `message`, or as is when there is none. */
export function inScope<T>(message: object, fn: () => T): T {
  const scope = (globalThis as Holder)[SCOPE];
  return scope ? scope(message, fn) : fn();
}

/** Install `scope`; returns the function that removes it (only if it is still the one installed). */
export function installScope(scope: TraceScope): () => void {
  (globalThis as Holder)[SCOPE] = scope;
  return () => {
    if ((globalThis as Holder)[SCOPE] === scope) delete (globalThis as Holder)[SCOPE];
  };
}
