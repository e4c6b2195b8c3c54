// Type tests for @skillmount/core's public types: checked by tsc (see types.test.ts), never run.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  checkTrustedKeys,
  type SignatureInvalidCode,
  signedSkillPath,
  type SkillSignatureRefusal,
  SkillSignatureError,
  type SkillSignatureResult,
  type SkillSignatureVerdict,
  type SkillSigner,
  SkillsClient,
  type SkillFile,
  skillDigest,
  type TrustedKey,
  verifySkill,
} from '@skillmount/core/client';
import {
  type AttachOptions,
  attach as attachSkills,
  type CatalogOptions,
  type SkillSearchCandidate,
  type SkillSearchError,
  type SkillSearchOptions,
  type SkillSearchPage,
  type SkillSearchRerank,
  searchEntries,
  SIGNATURE_META_KEY,
  type SkillSignatureMeta,
  type SkillTrustOptions,
  createSkillsEndpoint,
  type InstructionsOption,
  OptionError,
  SkillCatalog,
  type OptionErrorCode,
  type SkillEntry,
  type SkillFiles,
  type SkillResource,
  type SkillSource,
  type SkillWarning,
  type SkillWarningCode,
  type SkillsEndpointOptions,
  type TenantCatalogsOptions,
  skillVersion,
  tenantCatalogs,
  visibleLine,
} from '@skillmount/core';
import { bodyNotJson, contextFields, type HttpRefusal, INVALID_CONTEXT, setClientAddress } from '@skillmount/core/adapter';
import { fsStorage } from '@skillmount/storage-fs';
import type { SkillSearchResult } from '@skillmount/core/client';
import type { IncomingMessage } from 'node:http';

// tenantCatalogs: `storage` or `load`, never both; `key` always.
const key: TenantCatalogsOptions['key'] = async () => 'acme';
tenantCatalogs({ key, storage: (tenant) => fsStorage(`./skills/${tenant}`) });
tenantCatalogs({ key, storage: (tenant) => fsStorage(`./skills/${tenant}`), watch: true, max: 10 });
declare const loadOne: (tenant: string) => Promise<SkillSource & { close(): Promise<void> }>;
tenantCatalogs({ key, load: loadOne });
// @ts-expect-error storage and load exclude each other
tenantCatalogs({ key, storage: (tenant) => fsStorage(tenant), load: loadOne });
// @ts-expect-error key is required
tenantCatalogs({ storage: (tenant) => fsStorage(tenant) });
// @ts-expect-error catalog options apply to storage only
tenantCatalogs({ key, load: loadOne, watch: true });
// @ts-expect-error one of storage or load is needed
const neither: TenantCatalogsOptions = { key };

// A v2-style source: undefined means "not found".
const v2Source = {
  async list() {
    return { skills: [] };
  },
  async get() {
    return undefined;
  },
  async read() {
    return undefined;
  },
} satisfies SkillSource;
const asSource: SkillSource = v2Source;
const textRead: SkillSource['read'] = async () => ({ text: 'hello', mimeType: 'text/markdown' });
const badSource: SkillSource = {
  ...v2Source,
  // @ts-expect-error list must return a page
  async list() {
    return [];
  },
};

// SkillEntry.resources may be 'dynamic': narrow before using it as a list.
declare const entry: SkillEntry;
// @ts-expect-error not a list until 'dynamic' is ruled out
entry.resources.map((r) => r.uri);
if (entry.resources !== 'dynamic') {
  const first: SkillResource | undefined = entry.resources[0];
  void first;
}

// OptionError narrows on code.
function explain(error: unknown): string {
  if (error instanceof OptionError) {
    const code: OptionErrorCode = error.code;
    switch (error.code) {
      case 'invalid-value':
        return `out of range: ${error.option}`;
      case 'unknown-option':
      case 'invalid-type':
      case 'missing-option':
      case 'conflicting-options':
        return code;
      default: {
        const never: never = error.code;
        return never;
      }
    }
  }
  return 'not an option error';
}
// @ts-expect-error not one of the codes
const wrongCode: OptionErrorCode = 'bad-option';

export { asSource, badSource, explain, neither, textRead, wrongCode };

// SkillFiles: the optional tree token resolves a string or undefined, nothing else.
const tokened = {
  list: async () => [],
  read: async () => new Uint8Array(),
  treeToken: async () => 'generation-7',
} satisfies SkillFiles;
const unsure: SkillFiles = { ...tokened, treeToken: async () => undefined };
// @ts-expect-error a tree token is a string, not a number
const numbered: SkillFiles = { ...tokened, treeToken: async () => 7 };
void unsure;
void numbered;

// setClientAddress (for adapters): the framework's address of a node:http request, or nothing.
declare const incoming: IncomingMessage;
setClientAddress(incoming, '203.0.113.7');
setClientAddress(incoming, undefined);
// @ts-expect-error the address is a string, as the framework reports it
setClientAddress(incoming, 7);

// contextFields (for adapters): the checked fields of the app's context function, for any request type.
const fields: Promise<Record<string, unknown>> = contextFields(
  (request: IncomingMessage) => ({ tenant: request.headers['x-tenant'] }),
  incoming,
  '@acme/adapter',
);
contextFields(undefined, incoming, '@acme/adapter');
// @ts-expect-error the package name is required: the error message starts with it
contextFields(undefined, incoming);
const invalidContext: 'invalid-context' = INVALID_CONTEXT;
// bodyNotJson: the refusal every adapter sends for a body that is not JSON.
const notJson: HttpRefusal = bodyNotJson();
void fields;
void invalidContext;
void notJson;

// SkillWarning.code: one of the registered codes, still read as a string by apps that log or compare it.
declare const warning: SkillWarning;
const asText: string = warning.code;
const knownCode: SkillWarningCode = 'invalid-entry';
// @ts-expect-error an unregistered code is refused
const unknownCode: SkillWarningCode = 'invalid-entrie';
// @ts-expect-error a warning made with an unregistered code is refused
const madeUp: SkillWarning = { code: 'made-up', message: 'x' };
void asText;
void knownCode;
// A reload's unchanged warning is marked, and a tenant catalog's names its tenant.
const repeatedWarning: SkillWarning = { code: 'frontmatter', message: 'x', repeated: true, tenant: 'acme' };
// @ts-expect-error repeated is true or absent
const notRepeated: SkillWarning = { code: 'frontmatter', message: 'x', repeated: false };
void repeatedWarning;
void notRepeated;
void unknownCode;
void madeUp;

// tools and prompts: booleans on attach and on createSkillsEndpoint.
declare const someServer: McpServer;
declare const someSource: SkillSource;
attachSkills(someServer, someSource, { tools: true, prompts: true });
const surfaces: Pick<SkillsEndpointOptions, 'tools' | 'prompts'> = { tools: true, prompts: false };
// @ts-expect-error tools is a boolean
const badTools: AttachOptions = { tools: 'read_skill' };
export { badTools, surfaces };

// search: a boolean on attach and createSkillsEndpoint; SkillSource.search optional; the service and the client search.
attachSkills(someServer, someSource, { search: true });
createSkillsEndpoint({ source: someSource, search: true });
// @ts-expect-error search on attach is a boolean (the index's settings are the catalog's option)
attachSkills(someServer, someSource, { search: { text: true } });
const searching: SkillSource = {
  ...someSource,
  search: (_query, options) => ({ skills: [], ...(options.cursor ? {} : { nextCursor: 'next' }) }),
};
const found: Promise<{ skills: SkillEntry[]; nextCursor?: string }> = createSkillsEndpoint({ source: searching }).service.search('pdf', { limit: 5 });
declare const hostClient: SkillsClient;
const hostFound: Promise<SkillSearchResult> = hostClient.search('pdf forms', { limit: 5, cursor: 'next' });
// @ts-expect-error search() takes a query string
void hostClient.search({ query: 'pdf' });
export { found, hostFound };

// instructions: 'auto', a boolean, or the budget and intro; nothing else.
const instructionValues: InstructionsOption[] = ['auto', true, false, {}, { maxBytes: 1024 }, { intro: 'Our skills.' }];
createSkillsEndpoint({ source: someSource, instructions: instructionValues[0] });
attachSkills(someServer, someSource, { instructions: { maxBytes: 4096, intro: 'Team playbooks.' } });
// @ts-expect-error 'always' is the CLI's word; the option takes true
createSkillsEndpoint({ source: someSource, instructions: 'always' });
// @ts-expect-error maxBytes is a number
attachSkills(someServer, someSource, { instructions: { maxBytes: '2048' } });

// visibleLine: a string in, a string out; the limits are numbers, both optional.
const shown: string = visibleLine('Formats invoices.', { maxGraphemes: 120, maxBytes: 480 });
visibleLine('x');
visibleLine('x', {});
// @ts-expect-error a limit is a number
visibleLine('x', { maxGraphemes: '120' });
// @ts-expect-error no other limit
visibleLine('x', { maxChars: 120 });
// skillVersion: any value in (a frontmatter from anywhere), a string or undefined out.
const version: string | undefined = skillVersion({ metadata: { version: '1.2.0' } });
skillVersion(undefined);
// @ts-expect-error it may be undefined
const always: string = skillVersion({});
void version;
void always;
const newCodes: SkillWarningCode[] = ['hidden-characters', 'instructions-line-skipped'];
void shown;
void newCodes;

// Reads while a skill changes: the catalog's retention window, the client's refresh and the newer entry it reports.
void SkillCatalog.load(fsStorage('./skills'), { retainMs: 0 });
// @ts-expect-error retainMs is a number of milliseconds
void SkillCatalog.load(fsStorage('./skills'), { retainMs: '1m' });
declare const mcpClient: Client;
new SkillsClient(mcpClient, { refresh: false });
declare const readFile: SkillFile;
const newerEntry: SkillEntry | undefined = readFile.skill;
void newerEntry;
// Search: the catalog option, the method, the hook and the browser-safe function.
declare const searched: SkillCatalog;
const searchOption: CatalogOptions['search'] = { text: true, rerank: (candidates) => [...candidates].reverse() };
void searchOption;
const page: SkillSearchPage = searched.search('pdf tables', { limit: 5, visible: (entry: SkillEntry) => entry.uri !== '' });
const rerank: SkillSearchRerank = (candidates: readonly SkillSearchCandidate[]) => candidates.map((c) => ({ entry: c.entry, score: c.score * 2 }));
searchEntries(page.skills, 'pdf', { cursor: page.nextCursor ?? '', rerank } satisfies SkillSearchOptions & { rerank: SkillSearchRerank });
const searchReason: SkillSearchError['reason'] = 'cursor';
void searchReason;
// @ts-expect-error the query is a string
searched.search(42);
// @ts-expect-error the index option is boolean or an object
const badSearchOption: CatalogOptions['search'] = 'yes';
void badSearchOption;

// Signing: a signer is a public key and a function of bytes (a KMS or an HSM fits); a result is one of four states.
const kms: SkillSigner = { publicKey: '-----BEGIN PUBLIC KEY-----…', sign: async (payload: Uint8Array) => payload };
void kms;
const digestOfSkill: Promise<string> = skillDigest([{ path: 'SKILL.md', digest: 'sha256:…' }]);
void digestOfSkill;
// checkTrustedKeys takes anything (keys as read from a host's settings) and returns them read-only.
const checkedKeys: readonly TrustedKey[] = checkTrustedKeys(JSON.parse('[]') as unknown, 'settings.keys');
// @ts-expect-error the checked keys are frozen: read-only
checkedKeys.push({ name: 'b.pub', publicKey: '' });
void checkedKeys;
async function stateOf(): Promise<string> {
  const result: SkillSignatureResult = await verifySkill({ path: 'pdf', files: [] }, { trustedKeys: [{ name: 'a.pub', publicKey: '' }] });
  if (result.state === 'verified') return result.signer.name;
  if (result.state === 'invalid') {
    const code: SignatureInvalidCode = result.code;
    return code;
  }
  // @ts-expect-error an unsigned result has no signer
  if (result.state === 'unsigned') return result.signer;
  return result.state;
}
void stateOf;

// A client that verifies signatures: keys to trust (several, for rotation), a verdict on each read, a coded refusal.
declare const signedEntry: SkillEntry;
async function verdictOf(): Promise<string | undefined> {
  const verifying = new SkillsClient(mcpClient, { trustedKeys: [{ name: 'a.pub', publicKey: '-----BEGIN PUBLIC KEY-----…' }], requireSignature: true });
  const verdict: SkillSignatureVerdict = await verifying.verifySignature(signedEntry);
  const path: string = verdict.skillPath;
  void path;
  const file = await verifying.read(signedEntry);
  if (file.signature?.state === 'verified') return file.signature.signer.name;
  try {
    await verifying.read(signedEntry, 'notes.md');
  } catch (error) {
    if (error instanceof SkillSignatureError) {
      const code: SkillSignatureRefusal = error.code;
      const state: SkillSignatureResult['state'] = error.verdict.state;
      return `${code} ${state} ${error.skillUri}`;
    }
  }
  // @ts-expect-error requireSignature is a boolean
  new SkillsClient(mcpClient, { requireSignature: 'yes' });
  // @ts-expect-error a trusted key has a name and a public key
  new SkillsClient(mcpClient, { trustedKeys: ['-----BEGIN PUBLIC KEY-----…'] });
  const signedAs: string | undefined = signedSkillPath(new Uint8Array());
  return signedAs;
}
void verdictOf;
// The server's signature gate: the catalog option (adapters and tenants take the same), its warning codes, and the state in an entry's _meta.
const gate: SkillTrustOptions = { keys: [{ name: 'vendor.pub', publicKey: '-----BEGIN PUBLIC KEY-----…' }], requireSignature: true };
void SkillCatalog.load(fsStorage('./skills'), { trust: gate });
// @ts-expect-error keys are { name, publicKey }, not PEM strings
void SkillCatalog.load(fsStorage('./skills'), { trust: { keys: ['-----BEGIN PUBLIC KEY-----…'] } });
// @ts-expect-error the keys are required
const noKeys: SkillTrustOptions = { requireSignature: true };
void noKeys;
const gateCodes: SkillWarningCode[] = ['signature-missing', 'signature-invalid', 'signature-untrusted'];
void gateCodes;
function signerOf(entry: SkillEntry): string | undefined {
  const meta = entry._meta?.[SIGNATURE_META_KEY] as SkillSignatureMeta | undefined;
  return meta?.state === 'verified' ? meta.signer.name : undefined;
}
void signerOf;
