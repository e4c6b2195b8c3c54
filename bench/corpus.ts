/**
 * Deterministic skill trees: the same shape, names and bytes for the same size and seed, on
 * every machine. Each skill is `group-GG/skill-NNNNN/` with a SKILL.md and its other files spread
 * over `references/`, `scripts/` and `assets/`; every file has exactly the size asked for.
 */

export interface CorpusSize {
  /** Short label, e.g. `1000×10×4 KiB`. */
  label: string;
  skills: number;
  /** Files per skill, SKILL.md included. */
  filesPerSkill: number;
  /** Bytes per file. */
  fileBytes: number;
}

export interface CorpusFile {
  /** Relative, `/`-separated storage path. */
  path: string;
  /** Position in the corpus, used to pick the files a "1% changed" step rewrites. */
  index: number;
}

export const SEED = 0x5eed_2640;

export const size = (skills: number, filesPerSkill: number, kib: number): CorpusSize => ({
  label: `${skills}×${filesPerSkill}×${kib} KiB`,
  skills,
  filesPerSkill,
  fileBytes: kib * 1024,
});

export const fileCount = (s: CorpusSize) => s.skills * s.filesPerSkill;
export const totalBytes = (s: CorpusSize) => fileCount(s) * s.fileBytes;

const FOLDERS = ['references', 'scripts', 'assets'] as const;
const EXTENSIONS = { references: 'md', scripts: 'py', assets: 'txt' } as const;

const skillName = (i: number) => `skill-${String(i).padStart(5, '0')}`;
const skillDir = (i: number) => `group-${String(i % 20).padStart(2, '0')}/${skillName(i)}`;

/** Every file path of the corpus, in a fixed order. */
export function corpusFiles(s: CorpusSize): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (let i = 0; i < s.skills; i++) {
    const dir = skillDir(i);
    files.push({ path: `${dir}/SKILL.md`, index: files.length });
    for (let j = 1; j < s.filesPerSkill; j++) {
      const folder = FOLDERS[j % FOLDERS.length]!;
      files.push({ path: `${dir}/${folder}/file-${String(j).padStart(3, '0')}.${EXTENSIONS[folder]}`, index: files.length });
    }
  }
  return files;
}

/** The files a "1% changed" step rewrites: 1% of them (at least one), evenly spread, SKILL.md files among them. */
export function changedSlice(files: readonly CorpusFile[]): CorpusFile[] {
  const wanted = Math.max(1, Math.round(files.length / 100));
  return Array.from({ length: wanted }, (_, i) => {
    const file = files[Math.floor(((i + 0.37) * files.length) / wanted)]!;
    if (i % 4 !== 0) return file;
    // Every fourth is its skill's SKILL.md, which a catalog must read again for its frontmatter.
    const skillMd = `${file.path.split('/').slice(0, 2).join('/')}/SKILL.md`;
    return files.find((f) => f.path === skillMd) ?? file;
  });
}

/**
 * A small seeded generator (mulberry32): fast, and the same sequence everywhere for a seed.
 * Not for anything secret.
 */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A 32-bit hash of a string, to derive one file's seed from its path. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const WORDS =
  'skill agent file catalog digest verify server client request storage bucket table folder read list reload change token cache bytes stream page cursor entry resource template schema ' +
  'the a of to and in for with on by is are be this that it as from at or not use when each every one two three more less before after'.split(' ').join(' ');
const VOCABULARY = WORDS.split(' ');
const encoder = new TextEncoder();

/** Text of exactly `length` ASCII bytes: words and line breaks, drawn from `next`. */
function filler(next: () => number, length: number): string {
  const parts: string[] = [];
  let used = 0;
  let line = 0;
  while (used < length) {
    const word = VOCABULARY[next() % VOCABULARY.length]!;
    const sep = line > 60 ? '\n' : ' ';
    line = sep === '\n' ? 0 : line + word.length + 1;
    parts.push(word, sep);
    used += word.length + 1;
  }
  return parts.join('').slice(0, length);
}

/**
 * The bytes of one file: deterministic for (seed, path, version), exactly `fileBytes` long. A
 * SKILL.md carries valid frontmatter whose name matches its folder.
 */
export function fileBytes(s: CorpusSize, path: string, version = 0, seed = SEED): Uint8Array {
  const next = generator(seed ^ hashString(`${path}#${version}`));
  let head = '';
  if (path.endsWith('/SKILL.md')) {
    const name = path.split('/').at(-2)!;
    head = `---\nname: ${name}\ndescription: Benchmark skill ${name}, version ${version}. ${filler(next, 60).replace(/\n/g, ' ')}\n---\n\n# ${name}\n\n`;
  } else {
    head = `# ${path} (version ${version})\n`;
  }
  const body = filler(next, Math.max(0, s.fileBytes - head.length));
  const bytes = encoder.encode(head + body);
  if (bytes.byteLength !== s.fileBytes)
    throw new Error(`corpus: ${path} came out ${bytes.byteLength} bytes, not ${s.fileBytes}; use files of at least 512 bytes`);
  return bytes;
}
