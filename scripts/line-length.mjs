// Fails on source lines longer than the formatter's lineWidth that the formatter cannot break (a
// long string, comment or import name list it leaves whole). A file with a long line is formatted
// in memory, as `biome format` would write it, and the formatted text is what is measured; prints
// file:line for each line still too long.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MAX = 160;
const root = path.resolve(import.meta.dirname, '..');
const biome = path.join(root, 'node_modules', '.bin', 'biome');

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|mts|cts)$/.test(entry.name)) yield full;
  }
}

const long = [];
for (const pkg of readdirSync(path.join(root, 'packages'))) {
  const src = path.join(root, 'packages', pkg, 'src');
  let files;
  try {
    files = [...sources(src)];
  } catch {
    continue;
  }
  for (const file of files) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    const text = readFileSync(file, 'utf8');
    if (!text.split('\n').some((line) => [...line].length > MAX)) continue;
    const formatted = execFileSync(biome, ['format', `--stdin-file-path=${relative}`], {
      cwd: root,
      input: text,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    formatted.split('\n').forEach((line, i) => {
      const length = [...line].length;
      if (length > MAX) long.push(`${relative}:${i + 1}: ${length} characters${formatted === text ? '' : ' (line number once formatted)'}`);
    });
  }
}
if (long.length > 0) {
  console.error(`${long.length} line${long.length === 1 ? '' : 's'} longer than ${MAX} characters (break the string or comment):\n${long.join('\n')}`);
  process.exit(1);
}
