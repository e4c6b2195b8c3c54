import { readFileSync } from 'node:fs';
import path from 'node:path';
import type MarkdownIt from 'markdown-it';
import { defineConfig } from 'vitepress';
import { repositoryLinks } from './repo-links.mjs';
import { processTerm, searchRender } from './search.mjs';
import { readableTables } from './tables.mjs';

/**
 * Each code block is highlighted once per build: the local search index renders every guide and
 * reference page a second time, and highlighting (Shiki) was a third of the build's time. The
 * result depends only on the code, its language and its attributes.
 */
function onceHighlighted(md: MarkdownIt): void {
  const highlight = md.options.highlight;
  if (!highlight) return;
  const done = new Map<string, string>();
  md.options.highlight = (code, lang, attrs) => {
    const key = JSON.stringify([code, lang, attrs]);
    const known = done.get(key);
    if (known !== undefined) return known;
    const html = highlight(code, lang, attrs);
    done.set(key, html);
    return html;
  };
}

// The site is built from the markdown in docs/; the same files read well on GitHub, so links
// between pages are relative `.md` links, which VitePress turns into page links.
export default defineConfig({
  title: 'skillmount',
  description: 'Publish Agent Skills from your Node MCP server (the MCP Skills extension, for MCP SDK v1 servers).',
  lang: 'en',
  cleanUrls: false,
  // Pages link to files of the repository (SECURITY.md, BENCHMARKS.md, test/) through its GitHub
  // address: external to the site, so the build's own dead-link check leaves them alone.
  srcExclude: ['**/README.md'],
  // The site's own styles (style.css: tables that fit their column, and cards on a phone).
  head: [['style', {}, readFileSync(path.join(import.meta.dirname, 'style.css'), 'utf8')]],
  markdown: {
    config: (md) => {
      onceHighlighted(md);
      repositoryLinks(md);
      readableTables(md);
    },
  },
  // The built site, for `vitepress preview`, which takes its folder from here only: `node
  // scripts/docs.mjs build` writes .tmp/site unless told another folder, and `node scripts/docs.mjs
  // preview [dir]` names that folder in SKILLMOUNT_SITE_DIR.
  outDir: process.env.SKILLMOUNT_SITE_DIR ?? '../.tmp/site',
  themeConfig: {
    // The search index is downloaded when the search box opens. search.mts keeps it small (under
    // Vite's 500 kB chunk warning, which test/docs/site.test.ts holds): the API reference without
    // its code blocks, label headings and inherited members, and no index entries for "the" or "of".
    search: { provider: 'local', options: { _render: searchRender, miniSearch: { options: { processTerm } } } },
    outline: { level: [2, 3] },
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Reference', link: '/reference/core' },
      { text: 'API reference', link: '/api/' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Installing before npm', link: '/guide/install' },
          { text: 'An existing MCP route', link: '/guide/existing-route' },
          { text: 'Per-user skills behind OAuth', link: '/guide/oauth' },
          { text: 'S3, and a local S3 server', link: '/guide/s3' },
          { text: 'PostgreSQL', link: '/guide/postgres' },
          { text: 'Several replicas', link: '/guide/replicas' },
          { text: 'Rate limiting', link: '/guide/rate-limiting' },
          { text: 'Serverless and short-lived processes', link: '/guide/serverless' },
          { text: 'Hosts without the extension', link: '/guide/hosts' },
          { text: 'Usage analytics', link: '/guide/analytics' },
          { text: 'Traces and metrics', link: '/guide/telemetry' },
          { text: 'The CLI', link: '/guide/cli' },
          { text: 'SDK v2 apps', link: '/guide/sdk-v2' },
          { text: 'Moving from the SDK v2', link: '/guide/from-sdk-v2' },
          { text: 'Security', link: '/guide/security' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: '@skillmount/core', link: '/reference/core' },
          { text: 'Per-user skills and tenants', link: '/reference/visibility' },
          { text: 'Writing a source or a storage', link: '/reference/sources' },
          { text: 'Errors and warnings', link: '/reference/errors' },
          { text: 'Client', link: '/reference/client' },
          { text: 'Trust: digests and signatures', link: '/reference/trust' },
          { text: '@skillmount/fastify', link: '/reference/fastify' },
          { text: '@skillmount/express', link: '/reference/express' },
          { text: '@skillmount/storage-fs', link: '/reference/storage-fs' },
          { text: '@skillmount/storage-s3', link: '/reference/storage-s3' },
          { text: '@skillmount/storage-postgres', link: '/reference/storage-postgres' },
          { text: 'API reference', link: '/api/' },
        ],
      },
    ],
  },
});
