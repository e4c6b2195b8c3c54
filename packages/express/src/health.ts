import type { SkillsHealth } from '@skillmount/core';
import { HEALTH_LOADING, HEALTH_STOPPING, healthLoadFailed, healthOf } from '@skillmount/core/adapter';
import type { ServedSkills } from './served.js';

/**
 * The router's readiness: loading until its catalog loads, failed while the latest load failed
 * (until a load succeeds), the catalog's own state once loaded, stopping once closing began.
 * `follow()` is called after each (re)load starts, to learn how it ends.
 */
export function routerHealth(skills: ServedSkills, closing: () => boolean): { health(): SkillsHealth; follow(): void } {
  let loadFailedAt: Date | undefined;
  return {
    health() {
      if (closing()) return HEALTH_STOPPING;
      if (skills.loaded) return healthOf(skills.loaded);
      return loadFailedAt ? healthLoadFailed(loadFailedAt) : HEALTH_LOADING;
    },
    follow() {
      skills.ready.then(
        () => {
          loadFailedAt = undefined;
        },
        () => {
          loadFailedAt = new Date();
        },
      );
    },
  };
}
