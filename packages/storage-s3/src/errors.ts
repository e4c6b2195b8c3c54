/** `s3://bucket/key`: how every error names what it was about. */
export function s3Url(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}

interface SdkError {
  name?: string;
  message?: string;
  code?: string;
  errors?: unknown[];
  $metadata?: { httpStatusCode?: number };
}

const HINTS: Record<string, string> = {
  NoSuchKey: 'no such key',
  NotFound: 'not found',
  NoSuchBucket: 'no such bucket; create it or check the "bucket" option',
  AccessDenied: 'access denied; the credentials need s3:ListBucket on the bucket and s3:GetObject on its keys',
  InvalidAccessKeyId: 'the access key is not known to this endpoint; check the credentials',
  SignatureDoesNotMatch: 'the signature was refused; check the secret key and the region',
  ECONNREFUSED: 'connection refused; is the endpoint right and the server running?',
  ENOTFOUND: 'the endpoint host name does not resolve; check the endpoint',
  ETIMEDOUT: 'the connection timed out; check the endpoint and the network',
  ECONNRESET: 'the connection was reset by the server',
};

/** One line saying what went wrong with an S3 request: the service's error code and HTTP status, or the network error. */
export function describeS3Error(error: unknown): string {
  if (!error || typeof error !== 'object') return String(error);
  const e = error as SdkError;
  // Connection failures to a name with several addresses arrive as an AggregateError with an empty message.
  const inner = Array.isArray(e.errors) && e.errors.length > 0 ? (e.errors[0] as SdkError) : undefined;
  const code = e.code ?? inner?.code;
  const status = e.$metadata?.httpStatusCode;
  const hint = (code && HINTS[code]) ?? (e.name && HINTS[e.name]) ?? (status === 403 ? HINTS.AccessDenied : status === 404 ? HINTS.NotFound : undefined);
  const message = e.message || inner?.message || e.name || 'unknown error';
  const label = [e.name && e.name !== 'Error' ? e.name : code, status !== undefined ? `HTTP ${status}` : undefined].filter(Boolean).join(', ');
  return `${hint ?? message}${label ? ` (${label})` : ''}${hint && message && !message.includes(hint) ? `: ${message}` : ''}`;
}

/** True when S3 answered that the key does not exist. */
export function isMissingKey(error: unknown): boolean {
  const e = error as SdkError | undefined;
  return e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
