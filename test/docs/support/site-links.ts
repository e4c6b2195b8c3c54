/**
 * Checks the links of a built static site: every `<a href>` inside the site names a page that was
 * built and, when it has a `#fragment`, an element of that page with that id.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';

export interface BuiltPage {
  /** Path of the HTML file inside the site, `/`-separated: `guide/oauth.html`. */
  file: string;
  ids: Set<string>;
  hrefs: string[];
}

export interface BrokenLink {
  page: string;
  href: string;
  problem: string;
}

function htmlFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return htmlFiles(full, base);
    return name.endsWith('.html') ? [path.relative(base, full).split(path.sep).join('/')] : [];
  });
}

function parsePage(site: string, file: string): BuiltPage {
  const page: BuiltPage = { file, ids: new Set(), hrefs: [] };
  const parser = new Parser({
    onopentag(name, attributes) {
      if (attributes.id) page.ids.add(attributes.id);
      if (name === 'a' && attributes.name) page.ids.add(attributes.name);
      if (name === 'a' && attributes.href !== undefined) page.hrefs.push(attributes.href);
    },
  });
  parser.write(readFileSync(path.join(site, file), 'utf8'));
  parser.end();
  return page;
}

/** Every page of the site at `site`, parsed. */
export function readSite(site: string): Map<string, BuiltPage> {
  return new Map(htmlFiles(site).map((file) => [file, parsePage(site, file)]));
}

/** The built file a site path names (`/guide/oauth.html`, `/api/`, `/guide/oauth`), if any. */
function pageFor(pages: Map<string, BuiltPage>, pathname: string): BuiltPage | undefined {
  const plain = decodeURIComponent(pathname).replace(/^\//, '');
  const candidates = plain === '' || plain.endsWith('/') ? [`${plain}index.html`] : [plain, `${plain}.html`, `${plain}/index.html`];
  for (const candidate of candidates) {
    const page = pages.get(candidate);
    if (page) return page;
  }
  return undefined;
}

/** The links of `pages` that lead nowhere inside the site. Links to other sites are not followed. */
export function brokenLinks(pages: Map<string, BuiltPage>): { broken: BrokenLink[]; checked: number } {
  const broken: BrokenLink[] = [];
  let checked = 0;
  for (const page of pages.values()) {
    for (const href of page.hrefs) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
      checked++;
      const url = new URL(href, `http://site.invalid/${page.file}`);
      const target = pageFor(pages, url.pathname);
      if (!target) {
        broken.push({ page: page.file, href, problem: `no page at ${url.pathname}` });
        continue;
      }
      const id = decodeURIComponent(url.hash.slice(1));
      if (id !== '' && !target.ids.has(id)) broken.push({ page: page.file, href, problem: `${target.file} has no element with id "${id}"` });
    }
  }
  return { broken, checked };
}
