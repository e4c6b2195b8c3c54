/**
 * The OpenSSF Model Signing (OMS) format as a skill signature uses it: a Sigstore bundle (v0.3,
 * JSON) whose DSSE envelope wraps an in-toto statement. The statement's one subject is the skill's
 * path with the OMS root digest (SHA-256 over the files' raw digests in path order); its predicate
 * lists every file with its SHA-256 digest (`resources`). The bare-key method: the bundle names the
 * key by a hint and carries no certificate and no transparency-log entry.
 */
import { toHex } from './skill-digest.js';

/** The detached signature's file name, at the top of the skill's folder (the name vendors use for skills). */
export const SIGNATURE_FILE = 'skill.oms.sig';
export const BUNDLE_MEDIA_TYPE = 'application/vnd.dev.sigstore.bundle.v0.3+json';
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://model_signing/signature/v1.0';

export interface Resource {
  name: string;
  algorithm: 'sha256';
  digest: string;
}

export interface Statement {
  _type: string;
  subject: { name: string; digest: { sha256: string } }[];
  predicateType: string;
  predicate: {
    serialization: { method: 'files'; hash_type: 'sha256'; allow_symlinks: false; ignore_paths: string[] };
    resources: Resource[];
    /** Beside the OMS fields (verifiers of the format ignore it): the skill digest and its SKILL.md frontmatter's digest. */
    skill: { digest: string; frontmatterDigest: string };
  };
}

export interface Bundle {
  mediaType: string;
  verificationMaterial: { publicKey: { hint: string }; tlogEntries: [] };
  dsseEnvelope: { payload: string; payloadType: string; signatures: { sig: string; keyid: string }[] };
}

/** DSSE's pre-authentication encoding: what the signature covers (the payload type and the payload, length-prefixed). */
export function preAuthEncoding(payloadType: string, payload: Uint8Array): Uint8Array {
  const encoder = new TextEncoder();
  const type = encoder.encode(payloadType);
  const head = encoder.encode(`DSSEv1 ${type.length} `);
  const middle = encoder.encode(` ${payload.length} `);
  const out = new Uint8Array(head.length + type.length + middle.length + payload.length);
  out.set(head, 0);
  out.set(type, head.length);
  out.set(middle, head.length + type.length);
  out.set(payload, head.length + type.length + middle.length);
  return out;
}

/** The OMS root digest: SHA-256 over the resources' raw digests, in the order listed. */
export async function rootDigest(resources: readonly Resource[]): Promise<string> {
  const raw = new Uint8Array(resources.length * 32);
  resources.forEach((resource, i) => {
    for (let j = 0; j < 32; j++) raw[i * 32 + j] = Number.parseInt(resource.digest.slice(j * 2, j * 2 + 2), 16);
  });
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', raw)));
}
