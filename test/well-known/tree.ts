/** The skills the /.well-known tests publish: nested skill paths, non-ASCII and binary files, one-file skills, a version. */
import { skillMd } from '../support/skill-md.js';

/** The one skill with a version (`metadata.version`): the index names it; the others have none. */
export const INVOICE_VERSION = '2.1.0';

const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

export const TREE: Record<string, string | Uint8Array> = {
  'hello/SKILL.md': skillMd('hello', 'Says hello: a one-file skill.'),
  'acme/billing/invoice/SKILL.md': skillMd('invoice', {
    description: 'Makes invoices ✓',
    frontmatter: `metadata:\n  version: "${INVOICE_VERSION}"\n`,
    body: '# Invoice\n\nSee [the rates](données/résumé.md).\n',
  }),
  'acme/billing/invoice/scripts/run.sh': '#!/bin/sh\necho invoice\n',
  'acme/billing/invoice/données/résumé.md': 'Résumé: été, 日本語\n',
  'acme/billing/invoice/assets/logo.bin': BINARY,
  'acme/billing/invoice/nested/tax-rules/SKILL.md': skillMd('tax-rules', 'Tax rules, a skill nested in invoice.'),
  'acme/billing/invoice/nested/tax-rules/rates.csv': 'country,rate\nFR,20\n',
};

/** Each published skill's folder in the storage. */
export const FOLDERS: Record<string, string> = {
  hello: 'hello',
  invoice: 'acme/billing/invoice',
  'tax-rules': 'acme/billing/invoice/nested/tax-rules',
};

/** The file the reload tests change: inside invoice only (not inside its nested skill). */
export const CHANGED_FILE = 'acme/billing/invoice/données/résumé.md';
