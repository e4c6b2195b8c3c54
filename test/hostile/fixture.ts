import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A skills folder with things beside the skills that must never be served: `secret.txt` at the
 * root and a `notes/` folder that is not a skill. Every file holds a random marker, so a response
 * that carries any byte range of a file's content can be recognised by its marker.
 */
export interface HostileTree {
  root: string;
  /** Markers of files outside every skill. */
  outside: { secret: string; notes: string; deepNotes: string };
  /** Markers of the two skills' files. */
  alpha: { skill: string; guide: string };
  beta: { skill: string; data: string };
  /** Every marker. */
  all: string[];
  remove(): void;
}

const marker = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

export function makeHostileTree(): HostileTree {
  const root = mkdtempSync(path.join(tmpdir(), 'skillmount-hostile-'));
  const outside = { secret: marker('SECRET'), notes: marker('NOTSKILL'), deepNotes: marker('NOTSKILLDEEP') };
  const alpha = { skill: marker('ALPHA'), guide: marker('ALPHAGUIDE') };
  const beta = { skill: marker('BETA'), data: marker('BETADATA') };
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  write('secret.txt', `${outside.secret}\n`);
  write('notes/private.md', `# private\n${outside.notes}\n`);
  write('notes/deep/inner.txt', `${outside.deepNotes}\n`);
  write('alpha/SKILL.md', `---\nname: alpha\ndescription: The alpha test skill.\n---\n\n${alpha.skill}\n\nSee [the guide](refs/guide.md).\n`);
  write('alpha/refs/guide.md', `${alpha.guide}\n`);
  write('beta/SKILL.md', `---\nname: beta\ndescription: The beta test skill.\n---\n\n${beta.skill}\n`);
  write('beta/data/secret-beta.txt', `${beta.data}\n`);
  return {
    root,
    outside,
    alpha,
    beta,
    all: [...Object.values(outside), ...Object.values(alpha), ...Object.values(beta)],
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
