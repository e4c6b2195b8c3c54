import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFrontmatter } from '@skillmount/core';

test('yes/no/on stay strings under YAML 1.2 core schema', () => {
  const r = parseFrontmatter('---\nname: a\ndescription: d\nflag: yes\nother: on\n---\nbody');
  assert.ok(r.ok);
  assert.equal(r.frontmatter.flag, 'yes');
  assert.equal(r.frontmatter.other, 'on');
  assert.equal(r.body, 'body');
});
