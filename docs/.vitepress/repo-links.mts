import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type MarkdownIt from 'markdown-it';

/** Where the repository's files are read on the web: pages link to them through this address. */
export const REPOSITORY = 'https://github.com/skillmount/skillmount';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = path.join(REPO_ROOT, 'docs');

/**
 * A link from a page to a file of the repository outside docs/ (`../../SECURITY.md`) reads well on
 * GitHub but names nothing on the site: it is rewritten to the file's address in the repository.
 * A link whose file does not exist fails the build, naming the page and the link.
 */
export function repositoryLinks(md: MarkdownIt): void {
  md.core.ruler.push('skillmount-repository-links', (state) => {
    const page = state.env?.relativePath as string | undefined;
    if (!page) return;
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue;
        const href = token.attrGet('href');
        if (!href || /^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href)) continue;
        const [target = '', hash] = href.split('#');
        const file = path.resolve(path.dirname(path.join(DOCS, page)), decodeURIComponent(target));
        if (file.startsWith(`${DOCS}${path.sep}`) || file === DOCS) continue;
        if (!existsSync(file)) throw new Error(`docs/${page}: the link ${href} names ${path.relative(REPO_ROOT, file)}, which does not exist; fix the link`);
        const kind = statSync(file).isDirectory() ? 'tree' : 'blob';
        const relative = path.relative(REPO_ROOT, file).split(path.sep).join('/');
        token.attrSet('href', `${REPOSITORY}/${kind}/main/${relative}${hash === undefined ? '' : `#${hash}`}`);
      }
    }
  });
}
