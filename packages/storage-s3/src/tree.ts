import { isPlainSegment, type SkillFileEntry, type SkillFileListing } from '@skillmount/core/storage-kit';

/** Folder path (`''` = root) → its direct children, rebuilt from one flat listing. */
export type FolderIndex = Map<string, SkillFileEntry[]>;

/**
 * Group a flat listing by folder, adding the folders that keys imply. An unsupported key is
 * listed in the deepest folder its plain segments reach, named by the rest of its key, so a
 * walk through `list` sees it where a `Delimiter` listing would.
 */
export function indexByFolder(listing: readonly SkillFileListing[]): FolderIndex {
  const children = new Map<string, Map<string, SkillFileEntry>>([['', new Map()]]);
  const folder = (dir: string) => {
    let entries = children.get(dir);
    if (!entries) {
      entries = new Map();
      children.set(dir, entries);
    }
    return entries;
  };
  const addFolders = (segments: readonly string[]) => {
    for (let i = 0; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      const name = segments[i]!;
      const entries = folder(parent);
      if (entries.get(name)?.kind !== 'directory') entries.set(name, { name, kind: 'directory' });
      folder(segments.slice(0, i + 1).join('/'));
    }
  };

  for (const item of listing) {
    const segments = item.path.split('/');
    if (item.kind === 'unsupported') {
      let plain = 0;
      while (plain < segments.length - 1 && isPlainSegment(segments[plain]!)) plain++;
      addFolders(segments.slice(0, plain));
      const name = segments.slice(plain).join('/');
      folder(segments.slice(0, plain).join('/')).set(name, { name, kind: 'unsupported' });
    } else if (item.kind === 'directory') {
      addFolders(segments);
    } else {
      addFolders(segments.slice(0, -1));
      const { path: _path, ...entry } = item;
      const name = segments.at(-1)!;
      const entries = folder(segments.slice(0, -1).join('/'));
      // A key "a" and a folder "a/…" can both exist in S3; the folder wins, as it does in a Delimiter listing walk.
      if (entries.get(name)?.kind !== 'directory') entries.set(name, { ...entry, name });
    }
  }
  return new Map([...children].map(([dir, entries]) => [dir, [...entries.values()]]));
}
