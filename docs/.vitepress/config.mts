import { defineConfig } from 'vitepress';
import { repositoryLinks } from './repo-links.mjs';

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
  markdown: { config: repositoryLinks },
  themeConfig: {
    search: { provider: 'local' },
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
          { text: 'An existing MCP route', link: '/guide/existing-route' },
          { text: 'Per-user skills behind OAuth', link: '/guide/oauth' },
          { text: 'S3, and a local S3 server', link: '/guide/s3' },
          { text: 'PostgreSQL', link: '/guide/postgres' },
          { text: 'Several replicas', link: '/guide/replicas' },
          { text: 'Rate limiting', link: '/guide/rate-limiting' },
          { text: 'Serverless and short-lived processes', link: '/guide/serverless' },
          { text: 'Hosts without the extension', link: '/guide/hosts' },
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
