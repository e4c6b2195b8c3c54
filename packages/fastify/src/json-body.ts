import type { FastifyInstance } from 'fastify';

/** The parsed body of a POST that was not valid JSON; the route answers it with JSON-RPC -32700. */
export class MalformedBody {
  readonly reason: string;

  constructor(reason: string) {
    this.reason = reason;
  }
}

/**
 * Replace the JSON body parser of `instance` (an encapsulated context holding only the MCP route):
 * Fastify's own parser (secure-json-parse, with the app's poisoning settings) does the parsing,
 * but a body it refuses becomes a `MalformedBody` for the route to answer in JSON-RPC form, and an
 * empty body is accepted on GET and DELETE, which carry none. It is the only parser there: any other
 * content type (Fastify's own text/plain, or one the app added) gets 415 before the handler runs,
 * as the endpoint answers it behind every adapter, instead of reaching it as a string.
 */
export function useJsonRpcBodyParser(instance: FastifyInstance): void {
  const config = instance.initialConfig as { onProtoPoisoning?: 'error' | 'remove' | 'ignore'; onConstructorPoisoning?: 'error' | 'remove' | 'ignore' };
  // Fastify's default JSON parser is the callback form.
  const parse = instance.getDefaultJsonParser(config.onProtoPoisoning ?? 'error', config.onConstructorPoisoning ?? 'error') as (
    request: unknown,
    body: string,
    done: (error: Error | null, value?: unknown) => void,
  ) => void;
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.method !== 'POST') return done(null, undefined);
    parse(request, body as string, (error, value) => {
      done(null, error ? new MalformedBody(error.message) : value);
    });
  });
}
