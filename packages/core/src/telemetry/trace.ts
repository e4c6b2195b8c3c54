import type { TracingChannel } from 'node:diagnostics_channel';
import { inScope } from './scope.js';

/**
 * Run `fn` as one trace on `channel`, as `tracePromise` does (the `start` stores bound around it,
 * then `end`, and `asyncStart`/`asyncEnd` or `error` with `error` set), except that the value it
 * resolves with is not put on the message: `done` writes what subscribers may see instead. `fn`
 * runs in the tracer's scope for the trace (./scope.ts), so the work it starts is the trace's child.
 */
export function traced<T, M extends { error?: unknown }>(
  channel: TracingChannel<unknown, M>,
  message: M,
  fn: () => Promise<T>,
  done?: (value: T) => void,
): Promise<T> {
  const settle = () => {
    channel.asyncStart.publish(message);
    channel.asyncEnd.publish(message);
  };
  return channel.start.runStores(message, () => {
    let promise: Promise<T>;
    try {
      promise = inScope(message, fn);
    } catch (error) {
      message.error = error;
      channel.error.publish(message);
      channel.end.publish(message);
      throw error;
    }
    channel.end.publish(message);
    return promise.then(
      (value) => {
        done?.(value);
        settle();
        return value;
      },
      (error: unknown) => {
        message.error = error;
        channel.error.publish(message);
        settle();
        throw error;
      },
    );
  });
}
