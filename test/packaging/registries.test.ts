/**
 * The warning codes are a registry: `SkillWarningCode` (packages/core/src/types.ts) names them,
 * `WARNING_CODES` (packages/core/src/warnings/codes.ts) gives each its meaning and how often it is
 * told, and the warning table of the documentation (docs/reference/errors.md) says the same to users. This keeps the three in step
 * and every warning the sources create on a registered code, naming file:line when one is not.
 * (JSON-RPC error codes have their own check: error-codes.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '../..');
const TYPES = 'packages/core/src/types.ts';
const REGISTRY = 'packages/core/src/warnings/codes.ts';
const DOC = 'docs/reference/errors.md';

const parse = (file: string) => ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);

function sources(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sources(full, found);
    else if (name.endsWith('.ts')) found.push(path.relative(root, full));
  }
  return found;
}

const packageSources = readdirSync(path.join(root, 'packages')).flatMap((name) => {
  const src = path.join(root, 'packages', name, 'src');
  try {
    return sources(src);
  } catch {
    return [];
  }
});

function find<T extends ts.Node>(node: ts.Node, match: (n: ts.Node) => n is T): T | undefined {
  if (match(node)) return node;
  return ts.forEachChild(node, (child) => find(child, match));
}

/** The string literals of the `SkillWarningCode` union. */
function unionCodes(): string[] {
  const alias = find(parse(TYPES), (n): n is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(n) && n.name.text === 'SkillWarningCode');
  assert.ok(alias && ts.isUnionTypeNode(alias.type), `${TYPES} declares SkillWarningCode as a union of string literals`);
  return alias.type.types.map((t) => {
    assert.ok(ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal), `${TYPES}: every member of SkillWarningCode is a string literal`);
    return t.literal.text;
  });
}

/** `WARNING_CODES`: each code's `once` rule, by code. */
function registry(): Map<string, string> {
  const table = find(parse(REGISTRY), (n): n is ts.VariableDeclaration => ts.isVariableDeclaration(n) && n.name.getText() === 'WARNING_CODES');
  const object = table && find(table, ts.isObjectLiteralExpression);
  assert.ok(object, `${REGISTRY} declares WARNING_CODES as an object literal`);
  const rules = new Map<string, string>();
  for (const property of object.properties) {
    assert.ok(ts.isPropertyAssignment(property) && ts.isObjectLiteralExpression(property.initializer));
    const once = property.initializer.properties.find((p) => p.name?.getText() === 'once');
    assert.ok(once && ts.isPropertyAssignment(once) && ts.isStringLiteral(once.initializer), `${REGISTRY}: ${property.name.getText()} has a once rule`);
    rules.set(ts.isStringLiteral(property.name) ? property.name.text : property.name.getText(), once.initializer.text);
  }
  return rules;
}

/**
 * Every object literal in `file` that is shaped like a warning (a `code` that is a string literal and
 * a `message`), as `file:line` and its code.
 */
function warningLiterals(file: string): { at: string; code: string }[] {
  const source = parse(file);
  const found: { at: string; code: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const named = (name: string) => node.properties.find((p) => p.name !== undefined && p.name.getText() === name);
      const code = named('code');
      if (code && ts.isPropertyAssignment(code) && ts.isStringLiteralLike(code.initializer) && named('message')) {
        const { line } = source.getLineAndCharacterOfPosition(code.getStart());
        found.push({ at: `${file}:${line + 1}`, code: code.initializer.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('SkillWarningCode and WARNING_CODES name the same codes, each once', () => {
  const codes = unionCodes();
  assert.ok(codes.length >= 30, `${codes.length} codes in the union`);
  assert.equal(new Set(codes).size, codes.length, 'no code twice in SkillWarningCode');
  assert.deepEqual([...registry().keys()].sort(), [...codes].sort());
});

test('every warning the sources create has a registered code, and every registered code is created somewhere', () => {
  const registered = registry();
  const literals = packageSources.filter((f) => f !== TYPES && f !== REGISTRY).flatMap(warningLiterals);
  assert.ok(literals.length >= 40, `${literals.length} warnings found in the sources`);
  const unknown = literals.filter((w) => !registered.has(w.code)).map((w) => `${w.at}: '${w.code}'`);
  assert.deepEqual(unknown, [], `add these codes to SkillWarningCode (${TYPES}) and WARNING_CODES (${REGISTRY}), or use a registered one`);
  // A code a source writes other than in a warning literal (a parse result's code, a comparison) still counts as used.
  const text = packageSources
    .filter((f) => f !== TYPES && f !== REGISTRY)
    .map((f) => readFileSync(path.join(root, f), 'utf8'))
    .join('\n');
  const unused = [...registered.keys()].filter((code) => !text.includes(`'${code}'`));
  assert.deepEqual(unused, [], `registered codes no source uses: remove them from ${TYPES}, ${REGISTRY} and ${DOC}`);
});

test("the documentation's warning table lists every code with how often it is told, as the registry says", () => {
  const readme = readFileSync(path.join(root, DOC), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Warnings\n'));
  assert.ok(section.length > 0, `${DOC} has a "## Warnings" section`);
  const rows = section
    .slice(0, section.indexOf('\n## ', 1))
    .split('\n')
    .filter((line) => /^\| `[a-z-]+` \|/.test(line))
    .map((line) => {
      const cells = line.split(' | ');
      return { code: cells[0]!.slice(3, -1), told: cells.at(-1)!.replace(/ \|$/, '') };
    });
  const registered = registry();
  assert.deepEqual(
    rows.map((r) => r.code),
    [...registered.keys()],
    'one row per code, in the registry order',
  );
  // How each rule reads in the table's last column.
  const told: Record<string, RegExp> = {
    'per-load': /^each (load and reload|build)$/,
    'per-subject': /^once per .+ and (URI|key|hook)$/,
    'per-owner': /^once per [^,]+$/,
    'per-process': /^once per process/,
    'every-time': /^every time$/,
  };
  const wrong = rows.filter((r) => !told[registered.get(r.code)!]!.test(r.told)).map((r) => `${r.code}: "${r.told}" for ${registered.get(r.code)}`);
  assert.deepEqual(wrong, [], `${DOC}'s "told" column disagrees with ${REGISTRY}`);
});
