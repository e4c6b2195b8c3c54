// Loaded with `--import` (scripts/typescript-import.mjs says when) so that Node.js runs this
// repository's TypeScript by its own type stripping, with no transpiler: the one thing Node.js
// does not do by itself is find `./x.ts` when a TypeScript file imports `./x.js`, as the sources
// write it for their builds. Synchronous hooks, on the loading thread: no worker, no IPC.
import { existsSync } from 'node:fs';
import module from 'node:module';

module.registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (parent?.startsWith('file:') && parent.endsWith('.ts') && specifier.endsWith('.js') && /^\.\.?\//.test(specifier)) {
      const asWritten = new URL(specifier, parent);
      const typescript = new URL(`${asWritten.href.slice(0, -3)}.ts`);
      if (!existsSync(asWritten) && existsSync(typescript)) return nextResolve(typescript.href, context);
    }
    return nextResolve(specifier, context);
  },
});
