/**
 * JSON-RPC error codes come from one module (packages/core/src/protocol/error-codes.ts,
 * `JsonRpcErrorCode`): no source file writes one as a number in code. Comments and message texts
 * may cite them. A test, not a lint rule: Biome has no rule for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '../..');
const REGISTRY = 'packages/core/src/protocol/error-codes.ts';

function sources(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sources(full, found);
    else if (name.endsWith('.ts')) found.push(full);
  }
  return found;
}

/** `file:line` of every numeric literal in -32768..-32000 written in code (a minus sign and a number). */
function rawCodes(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
      const value = -Number(node.operand.text);
      if (value >= -32768 && value <= -32000) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${path.relative(root, file)}:${line + 1} (${value})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no JSON-RPC error code is written as a number outside JsonRpcErrorCode', () => {
  const packages = path.join(root, 'packages');
  const files = readdirSync(packages).flatMap((name) => {
    const src = path.join(packages, name, 'src');
    try {
      return sources(src);
    } catch {
      return [];
    }
  });
  assert.ok(files.length > 100, `${files.length} source files scanned`);
  const registry = rawCodes(path.join(root, REGISTRY));
  assert.ok(registry.length >= 7, 'the registry itself is seen by the scan');
  const outside = files.filter((f) => path.relative(root, f) !== REGISTRY).flatMap(rawCodes);
  assert.deepEqual(outside, [], 'use JsonRpcErrorCode from @skillmount/core (or /client, /adapter) instead');
});
