/**
 * Reading a skill file for the read tool and the prompts: through the skills service while the
 * server answers `resources/read` with the handler attach installed, else through the app's own
 * `resources/read` handler (the one that gates reads), so no surface reads around it.
 */
import type { RawHandler } from '../sdk/seams.js';
import type { ExtraLike } from '../context/store.js';
import type { ReadSkillFileResult, SkillContext, SkillReadVia } from '../types.js';
import type { SkillHandlers } from './handlers.js';

/** The app's own `resources/read` handler when it has one, `'unknown'` when that cannot be told, else undefined. */
export type AppRead = () => RawHandler | 'unknown' | undefined;

/** Thrown when the app owns `resources/read` and its handler cannot be reached: the surface steps aside. */
export class ReadStepsAside extends Error {}

/** One file's `resources/read` result, for `uri`, as the request's client would get it. */
export async function readSkillFile(
  handlers: SkillHandlers,
  appRead: AppRead,
  uri: string,
  extra: ExtraLike | undefined,
  ctx: SkillContext,
  via: SkillReadVia,
): Promise<ReadSkillFileResult> {
  const app = appRead();
  if (app === undefined) return handlers.read(uri, ctx, via);
  if (app === 'unknown') throw new ReadStepsAside(`the app answers resources/read itself; read ${uri} with resources/read`);
  return (await app({ method: 'resources/read', params: { uri } }, extra)) as ReadSkillFileResult;
}

/** The first content of a read as text, or what the bytes are when they are not text. */
export function contentOf(result: ReadSkillFileResult): { uri: string; text: string; mimeType?: string } | { uri: string; bytes: number; mimeType?: string } {
  const content = result.contents[0] as { uri: string; text?: string; blob?: string; mimeType?: string };
  const mime = content.mimeType !== undefined ? { mimeType: content.mimeType } : {};
  if (typeof content.text === 'string') return { uri: content.uri, text: content.text, ...mime };
  return { uri: content.uri, bytes: base64Size(content.blob ?? ''), ...mime };
}

/** The number of bytes a base64 string holds. */
function base64Size(blob: string): number {
  const padding = blob.endsWith('==') ? 2 : blob.endsWith('=') ? 1 : 0;
  return Math.floor((blob.length * 3) / 4) - padding;
}
