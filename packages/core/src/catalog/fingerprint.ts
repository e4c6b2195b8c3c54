import { createHash } from 'node:crypto';
import type { StorageTree } from './walk.js';

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A digest of everything a walk saw (folders, names, kinds, change tokens, vouched sizes and
 * digests), independent of listing order. Two walks with the same fingerprint describe the same
 * content, so the catalog built from the first still holds. Undefined when some file has neither a
 * change token nor a vouched digest: its content could change with nothing in the listing showing it.
 */
export function fingerprintOf(tree: StorageTree): string | undefined {
  const hash = createHash('sha256');
  for (const dir of [...tree.keys()].sort(byCodeUnit)) {
    let text = `${dir}\u0000`;
    for (const child of [...tree.get(dir)!].sort(byName)) {
      if (child.kind === 'file' && child.token === undefined && child.digest === undefined) return undefined;
      // A digest that is also the token (a storage whose token is the content hash) is written once.
      const digest = child.digest === child.token ? '=' : (child.digest ?? '');
      text += `${child.name}\u0000${child.kind}\u0000${child.token ?? ''}\u0000${child.size ?? ''}\u0000${digest}\n`;
    }
    hash.update(text);
  }
  return hash.digest('hex');
}
