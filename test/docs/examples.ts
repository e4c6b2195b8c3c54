// Type-checks the `@example` code of the doc comments as a user's own files, against the built
// packages (dist/) the way an app imports them, so an example cannot drift from the API.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { COMPILER_OPTIONS, type DocumentedItem, sharedHost } from './public-api.js';

export interface ExampleFile {
  /** The item whose doc comment holds the example. */
  item: DocumentedItem;
  file: string;
}

const FENCE = /```(?:ts|typescript)\n([\s\S]*?)```/g;

/** The TypeScript code blocks of an item's `@example` tags. */
export const codeBlocks = (item: DocumentedItem): string[] =>
  (item.tags.get('example') ?? []).flatMap((text) => [...text.matchAll(FENCE)].map((match) => match[1] ?? ''));

/** Writes each code block to its own module file in `dir` (a folder inside the repository, so the packages resolve). */
export const writeExamples = (items: DocumentedItem[], dir: string): ExampleFile[] => {
  mkdirSync(dir, { recursive: true });
  const files: ExampleFile[] = [];
  for (const item of items) {
    for (const [index, code] of codeBlocks(item).entries()) {
      const file = path.join(dir, `${item.name.replace(/[^A-Za-z0-9]+/g, '-')}-${index}.ts`);
      // `export {}` keeps a block without an import a module, so top-level await and names stay its own.
      writeFileSync(file, `${code}\nexport {};\n`);
      files.push({ item, file });
    }
  }
  return files;
};

/** The compiler's complaints about the example files, each as `item (file:line): message`. */
export const exampleProblems = (files: ExampleFile[]): string[] => {
  const program = ts.createProgram(
    files.map((f) => f.file),
    COMPILER_OPTIONS,
    sharedHost(),
  );
  const itemOf = new Map(files.map((f) => [path.resolve(f.file), f.item.name]));
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return message;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${itemOf.get(path.resolve(d.file.fileName)) ?? d.file.fileName} (example line ${line + 1}): ${message}`;
  });
};
