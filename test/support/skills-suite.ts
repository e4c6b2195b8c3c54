/**
 * What every skills endpoint must do, whatever serves it: run against a live URL serving
 * examples/skills. Used by the Fastify, Express and CLI tests.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { connectClient, errorCode } from './client.js';

export const EXAMPLES = path.resolve(import.meta.dirname, '../../examples/skills');

/** Every file of the examples folder, relative, `/`-separated. */
export function exampleFiles(root = EXAMPLES): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

const sha = (bytes: Uint8Array) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

export async function checkSkillsEndpoint(url: string, options: { pageSize?: number } = {}) {
  const { call, client, close } = await connectClient(url);
  try {
    const caps = client.getServerCapabilities();
    assert.ok(caps?.resources, 'resources capability declared');
    assert.deepEqual((caps as any).extensions['io.modelcontextprotocol/skills'], { directoryRead: true });

    // skills/list, following every page
    const skills: any[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call('skills/list', cursor ? { cursor } : {});
      assert.equal(page.resultType, 'complete');
      assert.equal(typeof page.ttlMs, 'number');
      assert.ok(page.cacheScope === 'public' || page.cacheScope === 'private');
      if (options.pageSize) assert.ok(page.skills.length <= options.pageSize);
      skills.push(...page.skills);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    if (options.pageSize) assert.equal(pages, Math.ceil(skills.length / options.pageSize));
    assert.deepEqual(
      skills.map((s) => s.uri),
      ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md'],
    );

    // every file on disk is in exactly one skill here (no nesting in the examples), with its digest
    const onDisk = exampleFiles();
    const listed = skills.flatMap((s) => s.resources.map((r: any) => r.uri));
    assert.deepEqual(listed.map((u: string) => u.slice('skill://'.length)).sort(), onDisk);

    for (const skill of skills) {
      const got = await call('skills/get', { uri: skill.uri });
      assert.deepEqual(got.skill, skill);
      assert.equal(got.resultType, 'complete');
      for (const file of skill.resources) {
        const read = await client.readResource({ uri: file.uri });
        const content = read.contents[0] as any;
        const bytes = content.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
        assert.equal(bytes.length, file.size, file.uri);
        assert.equal(sha(bytes), file.digest, file.uri);
        const disk = readFileSync(path.join(EXAMPLES, file.uri.slice('skill://'.length)));
        assert.ok(disk.equals(bytes), `${file.uri} is served byte for byte`);
      }
    }
    const logo = await client.readResource({ uri: 'skill://pdf-processing/assets/logo.png' });
    assert.equal((logo.contents[0] as any).mimeType, 'image/png');
    assert.ok('blob' in logo.contents[0]!, 'binary files travel as blob');

    // directories, down every level
    const seen: string[] = [];
    const walk = async (uri: string) => {
      let dirCursor: string | undefined;
      do {
        const page = await call('resources/directory/read', dirCursor ? { uri, cursor: dirCursor } : { uri });
        for (const child of page.resources) {
          if (child.mimeType === 'inode/directory') {
            assert.ok(!child.uri.endsWith('/'));
            await walk(child.uri);
          } else seen.push(child.uri.slice('skill://'.length));
        }
        dirCursor = page.nextCursor;
      } while (dirCursor);
    };
    for (const skill of skills) await walk(skill.uri.slice(0, -'/SKILL.md'.length));
    assert.deepEqual(seen.sort(), onDisk);

    // misses and bad params
    assert.equal(await errorCode(call('skills/get', { uri: 'skill://nope/SKILL.md' })), -32602);
    assert.equal(await errorCode(call('skills/get', { uri: 42 })), -32602);
    assert.equal(await errorCode(call('skills/get', {})), -32602);
    assert.equal(await errorCode(call('skills/list', { cursor: 'bogus' })), -32602);
    assert.equal(await errorCode(call('skills/list', { cursor: 7 })), -32602);
    assert.equal(await errorCode(call('resources/directory/read', { uri: 'skill://git-workflow/SKILL.md' })), -32602);
    assert.equal(await errorCode(call('resources/directory/read', { uri: 'skill://nope' })), -32602);
    assert.equal(await errorCode(call('resources/directory/read', {})), -32602);
    assert.equal(await errorCode(client.readResource({ uri: 'skill://git-workflow/missing.md' })), -32602);

    // SKILL.md files are listed in resources/list
    const listedResources = await client.listResources();
    for (const skill of skills) {
      const r = listedResources.resources.find((x) => x.uri === skill.uri);
      assert.ok(r, `${skill.uri} in resources/list`);
      assert.equal(r.name, skill.frontmatter.name);
      assert.equal(r.mimeType, 'text/markdown');
    }
    return { skills, listedResources };
  } finally {
    await close();
  }
}
