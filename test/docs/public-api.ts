// The exported API of every package entry point, read from the sources with the TypeScript
// compiler: each function, class and public class method, with the block tags of its doc comment.
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Each entry point a package exports, by the name it is imported as. */
export const ENTRY_POINTS: Record<string, string> = {
  '@skillmount/core': 'packages/core/src/index.ts',
  '@skillmount/core/client': 'packages/core/src/client/index.ts',
  '@skillmount/core/catalog': 'packages/core/src/catalog/index.ts',
  '@skillmount/core/adapter': 'packages/core/src/adapter/index.ts',
  '@skillmount/core/storage-kit': 'packages/core/src/storage-kit/index.ts',
  '@skillmount/core/sdk-v2': 'packages/core/src/sdk-v2/index.ts',
  '@skillmount/core/telemetry': 'packages/core/src/telemetry/index.ts',
  '@skillmount/fastify': 'packages/fastify/src/index.ts',
  '@skillmount/express': 'packages/express/src/index.ts',
  '@skillmount/storage-fs': 'packages/storage-fs/src/index.ts',
  '@skillmount/storage-s3': 'packages/storage-s3/src/index.ts',
  '@skillmount/storage-postgres': 'packages/storage-postgres/src/index.ts',
  skillmount: 'packages/cli/src/index.ts',
};

/**
 * The compiler options of both programs of test/docs/api-reference.test.ts: this one, over the
 * sources, and the one that type-checks the examples against the built packages (test/docs/examples.ts).
 */
export const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
};

// The files both programs read (the standard library, Node's types, the dependencies' types), parsed once.
const parsed = new Map<string, ts.SourceFile | undefined>();

/** A compiler host for COMPILER_OPTIONS that parses each file once for every program made with it. */
export const sharedHost = (): ts.CompilerHost => {
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, shouldCreate) => {
    const format = typeof version === 'object' ? version.impliedNodeFormat : undefined;
    const key = `${format}:${fileName}`;
    if (shouldCreate || !parsed.has(key)) parsed.set(key, read(fileName, version, onError, shouldCreate));
    return parsed.get(key);
  };
  return host;
};

export interface DocumentedItem {
  /** Where it is exported and under what name, e.g. `@skillmount/core#SkillCatalog.reload`. */
  name: string;
  kind: 'function' | 'class' | 'method';
  /** Where it is declared, as `file:line`. */
  at: string;
  /** The text of each block tag, by tag name (`example`, `throws`, …). */
  tags: Map<string, string[]>;
  /** For a method: its own body has a `throw` statement (outside any function nested in it). */
  throwsDirectly?: boolean;
}

const tagText = (tag: ts.JSDocTag): string => (typeof tag.comment === 'string' ? tag.comment : (ts.getTextOfJSDocComment(tag.comment) ?? ''));

const tagsOf = (node: ts.Node): Map<string, string[]> => {
  const tags = new Map<string, string[]>();
  for (const tag of ts.getJSDocTags(node)) {
    const name = tag.tagName.text;
    tags.set(name, [...(tags.get(name) ?? []), tagText(tag)]);
  }
  return tags;
};

const where = (node: ts.Node): string => {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${path.relative(ROOT, file.fileName)}:${line + 1}`;
};

const hasOwnThrow = (node: ts.Node): boolean =>
  ts.forEachChild(node, (child) => {
    if (ts.isThrowStatement(child)) return true;
    if (ts.isFunctionLike(child)) return undefined;
    return hasOwnThrow(child) || undefined;
  }) === true;

const isPublicMethod = (member: ts.ClassElement): member is ts.MethodDeclaration => {
  if (!ts.isMethodDeclaration(member) || !member.body) return false;
  const flags = ts.getCombinedModifierFlags(member);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  if (ts.isPrivateIdentifier(member.name) || ts.isComputedPropertyName(member.name)) return false;
  return !ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
};

/** A function is a function declaration or a `const` one can call (an arrow function, or a plugin `fp()` made). */
const functionOf = (declaration: ts.Declaration, checker: ts.TypeChecker): ts.Node | undefined => {
  if (ts.isFunctionDeclaration(declaration)) return declaration;
  if (ts.isVariableDeclaration(declaration) && checker.getTypeAtLocation(declaration).getCallSignatures().length > 0) return declaration.parent.parent;
  return undefined;
};

const itemsOfSymbol = (exported: string, symbol: ts.Symbol, checker: ts.TypeChecker): DocumentedItem[] => {
  const items: DocumentedItem[] = [];
  for (const declaration of symbol.declarations ?? []) {
    const fn = functionOf(declaration, checker);
    // An overloaded function is documented once, on its first signature.
    if (fn && !items.some((item) => item.kind === 'function')) items.push({ name: exported, kind: 'function', at: where(fn), tags: tagsOf(fn) });
    if (ts.isClassDeclaration(declaration)) {
      items.push({ name: exported, kind: 'class', at: where(declaration), tags: tagsOf(declaration) });
      for (const member of declaration.members.filter(isPublicMethod)) {
        const name = `${exported}.${member.name.getText()}`;
        items.push({ name, kind: 'method', at: where(member), tags: tagsOf(member), throwsDirectly: hasOwnThrow(member.body!) });
      }
    }
  }
  return items;
};

/** Every exported function, class and public class method of every entry point. */
export const publicApi = (): DocumentedItem[] => {
  const files = Object.values(ENTRY_POINTS).map((file) => path.join(ROOT, file));
  const program = ts.createProgram(files, COMPILER_OPTIONS, sharedHost());
  const checker = program.getTypeChecker();
  const items: DocumentedItem[] = [];
  for (const [entry, file] of Object.entries(ENTRY_POINTS)) {
    const source = program.getSourceFile(path.join(ROOT, file));
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}: not found or not a module; ENTRY_POINTS in test/docs/public-api.ts lists each package's entry points`);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      items.push(...itemsOfSymbol(`${entry}#${exported.name}`, symbol, checker));
    }
  }
  // What several entry points export (OptionError, the capability helpers) is one declaration: listed once.
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.at) && seen.add(item.at));
};
