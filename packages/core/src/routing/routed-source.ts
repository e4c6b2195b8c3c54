/**
 * Sources that answer each request from another source, chosen by the request's context (the
 * catalog of the request's tenant). The request handlers resolve such a source once per request
 * and take everything they send from the source it resolved to: the result, its cache hint, and
 * whether its entries were already checked. Nothing depends on the order of two calls.
 */
import type { SkillContext, SkillSource } from '../types.js';

export interface RoutedSource extends SkillSource {
  /**
   * Run `use` with the source that serves `ctx`, kept in memory until `use` settles. Rejects, and
   * never calls `use`, when that source cannot be had (its load failed, the router is closed).
   */
  resolve<T>(ctx: SkillContext, use: (source: SkillSource) => T | Promise<T>): Promise<T>;
}

// A registry, not a method name: an app's own source may well have a method called `resolve`.
const routed = new WeakSet<object>();

/** Declare `source` a router: the handlers will go through its `resolve` on every request. */
export function markRouted(source: RoutedSource): void {
  routed.add(source);
}

/** Run `use` with the one source that answers `ctx`: the pick of a router, else `source` itself. */
export async function withResolvedSource<T>(source: SkillSource, ctx: SkillContext, use: (resolved: SkillSource) => T | Promise<T>): Promise<T> {
  return routed.has(source) ? (source as RoutedSource).resolve(ctx, use) : use(source);
}
