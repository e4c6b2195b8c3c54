const SKILL_MD = '/SKILL.md';

/**
 * The skill name a SKILL.md URI implies: its folder's last segment, percent-decoded (the Agent
 * Skills spec makes a skill's name its folder's). Undefined for any other URI, or a segment that
 * does not decode.
 */
export function skillMdName(uri: string): string | undefined {
  if (!uri.endsWith(SKILL_MD)) return undefined;
  const folder = uri.slice(0, -SKILL_MD.length);
  try {
    return decodeURIComponent(folder.slice(folder.lastIndexOf('/') + 1)) || undefined;
  } catch {
    return undefined;
  }
}
