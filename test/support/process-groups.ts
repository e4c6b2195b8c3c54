/**
 * Process groups a test file starts (a detached child and everything it spawns), killed whole when
 * the file ends, so a test that fails before its own cleanup leaves no server holding a port.
 */
import { after } from 'node:test';

/** The set to add each group's leader pid to (and delete it from once the test ended it itself). */
export function reapedGroups(): Set<number> {
  const groups = new Set<number>();
  after(() => {
    for (const pgid of groups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  return groups;
}
