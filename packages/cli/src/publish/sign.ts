/**
 * `publish --sign`: every skill to publish gets a signature over exactly the files the upload
 * sends (each checked against the digest the check hashed), so a republish never leaves a stale
 * one. A skill's `skill.oms.sig` in the folder is kept only when it still verifies with the
 * signing key over those files (an unchanged skill uploads nothing new); any other is replaced.
 */
import { SIGNATURE_FILE, type SkillSigner, sha256Digest, signSkill, verifySkillListing } from '@skillmount/core';
import type { FsStorage } from '@skillmount/storage-fs';
import { type CheckedSkill, type LocalFile, readChecked } from './local.js';

export interface PublishSignatures {
  /** The files to publish: the checked ones, each signature made here in place of the folder's. */
  files: LocalFile[];
  /** The signatures made here, by stored path (`team/pdf/skill.oms.sig`). */
  made: Map<string, Uint8Array>;
  /** The skills whose signature in the folder was current, kept as it is. */
  kept: string[];
}

/** Signatures for `skills`, made innermost first: a skill's folder holds the files of the skills nested in it, their new signatures included. */
export async function signForPublish(
  folder: Pick<FsStorage, 'read'>,
  skills: readonly CheckedSkill[],
  files: readonly LocalFile[],
  signer: SkillSigner,
): Promise<PublishSignatures> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const made = new Map<string, Uint8Array>();
  const kept: string[] = [];
  const depth = (skill: CheckedSkill) => skill.path.split('/').length;
  for (const skill of [...skills].sort((a, b) => depth(b) - depth(a))) {
    const own = `${skill.path}/${SIGNATURE_FILE}`;
    // The files the server will list for the skill: those the check listed, and the signatures made here for skills nested in it.
    const nested = [...made.keys()].filter((file) => file.startsWith(`${skill.path}/`) && !skill.files.includes(file));
    const covered = [...skill.files.filter((file) => file !== own), ...nested];
    const relative = (file: string) => file.slice(skill.path.length + 1);
    const digestOf = (file: string) => {
      const bytes = made.get(file);
      return bytes ? sha256Digest(bytes) : byPath.get(file)!.digest;
    };
    const bytesOf = async (file: string) => made.get(file) ?? (await readChecked(folder, byPath.get(file)!));
    const existing = byPath.get(own);
    if (existing) {
      const current = await verifySkillListing(
        {
          path: skill.path,
          files: covered.map((file) => ({ path: relative(file), digest: digestOf(file) })),
          signature: await readChecked(folder, existing),
          skillMd: await bytesOf(`${skill.path}/SKILL.md`),
        },
        { trustedKeys: [{ name: 'the signing key', publicKey: signer.publicKey }] },
      );
      if (current.state === 'verified') {
        kept.push(skill.path);
        continue;
      }
    }
    const toSign = await Promise.all(covered.map(async (file) => ({ path: relative(file), bytes: await bytesOf(file) })));
    made.set(own, new TextEncoder().encode(await signSkill({ path: skill.path, files: toSign }, signer)));
  }
  const signed = [...made].map(([path, bytes]): LocalFile => ({ path, size: bytes.byteLength, digest: sha256Digest(bytes) }));
  const all = [...files.filter((file) => !made.has(file.path)), ...signed].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: all, made, kept };
}
