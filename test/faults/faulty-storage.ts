import type { SkillFiles } from '@skillmount/core';

/**
 * - `ok`: pass every call through;
 * - `fail`: every list and read throws an error naming an absolute storage path (as a disk or
 *   network storage would), which must never reach a client;
 * - `hang`: every list and read never answers;
 * - `garbage`: reads answer other bytes than stored (`GARBAGE…` of the same length).
 */
export type FaultMode = 'ok' | 'fail' | 'hang' | 'garbage';

export interface FaultyStorage extends SkillFiles {
  mode: FaultMode;
  /** Where the made-up errors say the files are. */
  readonly where: string;
  /** The text every garbage read is made of. */
  readonly garbageMarker: string;
  /** Settle every hung call (with an error), so nothing is left pending at the end. */
  release(): void;
}

/** `inner` with faults switched on and off while it serves. */
export function faultyStorage(inner: SkillFiles, label: string): FaultyStorage {
  const hung = new Set<() => void>();
  const where = `/srv/skillmount-private/${label}`;
  const garbageMarker = `GARBAGE-${label}-`;
  const fault = <T>(call: () => Promise<T>, path: string, what: string): Promise<T> => {
    switch (storage.mode) {
      case 'fail':
        return Promise.reject(new Error(`EIO: i/o error, ${what} '${where}/${path}'`));
      case 'hang':
        return new Promise<T>((_, reject) => {
          const settle = () => {
            hung.delete(settle);
            reject(new Error('released at the end of the test'));
          };
          hung.add(settle);
        });
      default:
        return call();
    }
  };
  const storage: FaultyStorage = {
    mode: 'ok',
    where,
    garbageMarker,
    list: (dir) => fault(() => inner.list(dir), dir, 'scandir'),
    read: (path) =>
      fault(
        async () => {
          const bytes = await inner.read(path);
          if (storage.mode !== 'garbage') return bytes;
          const text = garbageMarker.repeat(Math.ceil(bytes.length / garbageMarker.length) + 1);
          return new TextEncoder().encode(text).subarray(0, bytes.length);
        },
        path,
        'open',
      ),
    release: () => {
      for (const settle of [...hung]) settle();
    },
  };
  return storage;
}
