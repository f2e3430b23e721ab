/** STS: AssumeRole (signed), AssumeRoleWithWebIdentity and AssumeRoleWithLDAPIdentity (minio-protocol §2). */
import type { S3Client } from "./client.ts";
import { parseErrorResponse } from "./errors.ts";
import { sha256Hex } from "./sigv4.ts";
import { child, childText, parseXml } from "./xml.ts";

export interface TemporaryCredentials {
  accessKey: string;
  secretKey: string;
  sessionToken: string;
  /** RFC 3339 expiry. */
  expiration: string;
}

function parseCredentials(text: string): TemporaryCredentials {
  const root = parseXml(text);
  const result = root.children.find((c) => c.name.endsWith("Result"));
  const creds = child(result, "Credentials");
  const accessKey = childText(creds, "AccessKeyId");
  if (!accessKey) throw new Error("STS answer carries no credentials");
  return {
    accessKey,
    secretKey: childText(creds, "SecretAccessKey") ?? "",
    sessionToken: childText(creds, "SessionToken") ?? "",
    expiration: childText(creds, "Expiration") ?? "",
  };
}

/** AssumeRole signed by the client's own (long-term) credentials; the form body goes to POST /. */
export async function assumeRole(
  client: S3Client,
  options: {
    durationSeconds?: number;
    policy?: string;
    tokenRevokeType?: string;
    /** Extra headers, e.g. the client address a console vouches for (forwarded_client.ts). */
    headers?: Record<string, string>;
  } = {},
): Promise<TemporaryCredentials> {
  const form = new URLSearchParams({
    Action: "AssumeRole",
    DurationSeconds: String(options.durationSeconds ?? 3600),
    Version: "2011-06-15",
  });
  if (options.policy) form.set("Policy", options.policy);
  // MinIO's extension (minio-protocol §2.2): names these credentials for revoke-tokens (minio-protocol-2 §13.1).
  if (options.tokenRevokeType) form.set("TokenRevokeType", options.tokenRevokeType);
  const text = await client.text({
    method: "POST",
    path: "/",
    service: "sts",
    body: form.toString(),
    headers: { ...options.headers, "content-type": "application/x-www-form-urlencoded" },
    omitContentSha: true,
  });
  return parseCredentials(text);
}

async function unsignedSts(
  endpoint: string,
  fetcher: typeof fetch,
  form: URLSearchParams,
): Promise<TemporaryCredentials> {
  const body = form.toString();
  const res = await fetcher(`${endpoint.replace(/\/+$/, "")}/`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-amz-content-sha256": await sha256Hex(body),
    },
    body,
  });
  if (!res.ok) throw await parseErrorResponse(res);
  return parseCredentials(await res.text());
}

/** Trades an OpenID id_token for temporary credentials. */
export function assumeRoleWithWebIdentity(
  endpoint: string,
  fetcher: typeof fetch,
  options: { token: string; durationSeconds?: number; roleArn?: string; tokenRevokeType?: string },
): Promise<TemporaryCredentials> {
  const form = new URLSearchParams({
    Action: "AssumeRoleWithWebIdentity",
    Version: "2011-06-15",
    WebIdentityToken: options.token,
  });
  if (options.durationSeconds) form.set("DurationSeconds", String(options.durationSeconds));
  if (options.tokenRevokeType) form.set("TokenRevokeType", options.tokenRevokeType);
  if (options.roleArn) form.set("RoleArn", options.roleArn);
  return unsignedSts(endpoint, fetcher, form);
}

/** Trades an LDAP username and password for temporary credentials. */
export function assumeRoleWithLdapIdentity(
  endpoint: string,
  fetcher: typeof fetch,
  options: { username: string; password: string; durationSeconds?: number; tokenRevokeType?: string },
): Promise<TemporaryCredentials> {
  const form = new URLSearchParams({
    Action: "AssumeRoleWithLDAPIdentity",
    Version: "2011-06-15",
    LDAPUsername: options.username,
    LDAPPassword: options.password,
  });
  if (options.durationSeconds) form.set("DurationSeconds", String(options.durationSeconds));
  if (options.tokenRevokeType) form.set("TokenRevokeType", options.tokenRevokeType);
  return unsignedSts(endpoint, fetcher, form);
}
