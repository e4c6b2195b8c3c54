import { invalidParams } from '../errors.js';

/** `params` as an object; a `-32602` for anything else. */
export function paramsObject(params: unknown, method: string): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) throw invalidParams(`${method}: params must be an object`);
  return params as Record<string, unknown>;
}

export function requiredUri(params: Record<string, unknown>, method: string, what: string): string {
  const uri = params.uri;
  if (typeof uri !== 'string' || uri.length === 0) {
    throw invalidParams(`${method}: params.uri is required and must be a string (${what})`);
  }
  if (uri.length > 8192) throw invalidParams(`${method}: params.uri is longer than 8192 characters`);
  return uri;
}

export function optionalCursor(params: Record<string, unknown>, method: string): string | undefined {
  const cursor = params.cursor;
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string') throw invalidParams(`${method}: params.cursor must be a string returned as nextCursor`);
  return cursor;
}
