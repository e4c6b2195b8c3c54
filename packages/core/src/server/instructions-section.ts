/**
 * The skills section for one client: the skills it may see, listed through the one skills
 * service (or the app's own `skills/list`, when the app owns that method), so `visible()`, the
 * tenant's catalog and the app's handler decide what it names. The work is bounded: listing stops
 * once the budget is full, and counting the rest stops after a few pages. A skill whose line does
 * not fit is left out (the lines after it still get their turn) and told once.
 */
import { describeError } from '../text/error-text.js';
import { skillVersion } from '../text/skill-version.js';
import type { SkillWarning } from '../types.js';
import { tell, THE_PROCESS } from '../warnings/told.js';
import { isPlainUri, skillLine, skillsSection, type OnSkipped, type PointerSkill } from './instructions.js';
import type { InstructionsPlan } from './instructions-option.js';

/** One `skills/list` page, as the service (or the app's handler) answers it. */
export type ListPage = (cursor: string | undefined) => Promise<unknown>;

const utf8 = new TextEncoder();

/** Pages asked for to count the skills past the budget, and entries counted; past either: "more skills". */
const MAX_COUNT_PAGES = 20;
const MAX_COUNTED = 5000;
/** Pages asked for in all: a source that pages one skill at a time still ends. */
const MAX_PAGES = 200;
/** Lines too long for any section kept to be told about; the rest are counted. */
const MAX_TOO_LONG = 20;

/** The section for a client, or undefined when no skill is visible to it; `onSkipped` hears of lines left out (see `skillsSection`). */
export async function sectionFor(plan: InstructionsPlan, list: ListPage, signal?: AbortSignal, onSkipped?: OnSkipped): Promise<string | undefined> {
  const skills: PointerSkill[] = [];
  // Bytes of the lines listed so far: once past the budget, no later line can fit.
  let listedBytes = 0;
  let tooLong = 0;
  let counted = 0;
  let countPages = 0;
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    signal?.throwIfAborted();
    const page = (await list(cursor)) as { skills?: unknown; nextCursor?: unknown } | undefined;
    for (const entry of Array.isArray(page?.skills) ? page.skills : []) {
      const skill = pointerOf(entry);
      if (!skill) continue;
      if (listedBytes <= plan.maxBytes) {
        const cost = utf8.encode(skillLine(skill)).byteLength + 1;
        // A line larger than the whole budget is left out of the section: it does not use up the room of the lines after
        // it. The first few are kept for the warning that names them; past those, they are counted with the rest.
        if (cost <= plan.maxBytes) listedBytes += cost;
        else if (++tooLong > MAX_TOO_LONG) {
          counted++;
          continue;
        }
        skills.push(skill);
      } else counted++;
    }
    cursor = typeof page?.nextCursor === 'string' ? page.nextCursor : undefined;
    if (cursor === undefined) return skillsSection(skills, counted, plan, onSkipped);
    if (listedBytes > plan.maxBytes && ++countPages >= MAX_COUNT_PAGES) break;
    if (counted >= MAX_COUNTED || pages + 1 >= MAX_PAGES) break;
  }
  return skillsSection(skills, 'unknown', plan, onSkipped);
}

/** Skipped skills a warning names by URI; the rest are counted. */
const SKIPPED_NAMED = 5;

/**
 * The one warning for a section that left skills out: told once per process for the same skipped
 * URIs, since every handshake builds the section again and would tell it again.
 */
function skippedWarning(warn: (warning: SkillWarning) => void, plan: InstructionsPlan): OnSkipped {
  return (skipped) => {
    const uris = skipped.slice(0, SKIPPED_NAMED).map((s) => s.uri);
    const more = skipped.length > SKIPPED_NAMED ? ` and ${skipped.length - SKIPPED_NAMED} more` : '';
    const [count, lines] = skipped.length === 1 ? ['a skill', 'its line does'] : [`${skipped.length} skills`, 'their lines do'];
    const warning: SkillWarning = {
      code: 'instructions-line-skipped',
      uri: skipped[0]!.uri,
      message:
        `${count} left out of the skills section of the instructions (${uris.join(', ')}${more}): ${lines} not fit in the ` +
        `${plan.maxBytes}-byte section, so the skills after were named instead and the last line counts the skipped among those ` +
        'to find in resources/list. Shorten the description, name or path, or raise instructions.maxBytes',
    };
    tell(THE_PROCESS, warn, warning, uris.join(' ') + more);
  };
}

/** Name, description, version and SKILL.md URI of a listed entry; undefined for one that cannot be named safely. */
function pointerOf(entry: unknown): PointerSkill | undefined {
  const { uri, frontmatter } = (entry ?? {}) as { uri?: unknown; frontmatter?: { name?: unknown; description?: unknown } };
  if (typeof uri !== 'string' || !isPlainUri(uri) || typeof frontmatter?.name !== 'string') return undefined;
  const description = typeof frontmatter.description === 'string' ? frontmatter.description : '';
  const version = skillVersion(frontmatter);
  return { name: frontmatter.name, description, uri, ...(version !== undefined ? { version } : {}) };
}

/**
 * The longest a handshake waits for the listing. The section is a courtesy: a source that hangs
 * (a storage that does not answer) must not keep clients from connecting to the app's own tools.
 */
export const LISTING_TIME_MS = 3000;

const LATE = Symbol('late');

/**
 * The section, or undefined (told to `warn` as `instructions-failed`) when the skills cannot be
 * listed, or not within `LISTING_TIME_MS`: the client then gets the app's instructions alone, and
 * its handshake still succeeds. A skill left out because its line did not fit is told to `warn` as
 * `instructions-line-skipped`, once per process for the same skills.
 */
export async function sectionOrNothing(
  plan: InstructionsPlan,
  list: ListPage,
  warn: (warning: SkillWarning) => void,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const stop = new AbortController();
  // Stops paging when the client goes away too (AbortSignal.any is not in every Node 20).
  const gone = () => stop.abort();
  signal?.addEventListener('abort', gone, { once: true });
  if (signal?.aborted) stop.abort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => {
      stop.abort();
      resolve(LATE);
    }, LISTING_TIME_MS);
  });
  try {
    // Paging stops once the client is gone or the time is up; a page still being listed is left to finish on its own.
    const section = await Promise.race([sectionFor(plan, list, stop.signal, skippedWarning(warn, plan)), late]);
    if (section !== LATE) return section;
    warn({
      code: 'instructions-failed',
      message: `listing the skills for the instructions took longer than ${LISTING_TIME_MS} ms; they went out without them`,
    });
    return undefined;
  } catch (error) {
    if (signal?.aborted) return undefined;
    const why = describeError(error);
    warn({ code: 'instructions-failed', message: `the skills could not be listed for the instructions, which went out without them: ${why.slice(0, 300)}` });
    return undefined;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', gone);
  }
}
