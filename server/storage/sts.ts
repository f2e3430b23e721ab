/**
 * STS (minio-protocol §2): AssumeRole issues temporary credentials for a long-term user or root, with an
 * optional session policy; AssumeRoleWithWebIdentity trades a verified token of the configured OpenID
 * provider and AssumeRoleWithLDAPIdentity (sts_ldap.ts) a directory user's name and password; both answer
 * "not configured" until an identity provider is set up.
 */
import { checkPolicy } from "../lib/policy/validate.ts";
import { buildXml, type XmlObject } from "../lib/s3/xml.ts";
import { StoreError, stsErrorResponse } from "./core/errors.ts";
import type { VerifiedRequest } from "./core/contracts.ts";
import { type OpenIdSettings, verifyWebIdentity, WebIdentityError } from "./iam/openid.ts";
import { generateCredentials, type IamStore } from "./iam/store.ts";
import type { LdapSettings } from "../lib/ldap/settings.ts";
import { assumeRoleWithLdapIdentity } from "./sts_ldap.ts";

const NS = "https://sts.amazonaws.com/doc/2011-06-15/";

export interface StsProviders {
  /** The configured OpenID provider, or null (identity_openid). */
  openid: () => OpenIdSettings | null;
  /** The configured directory, or null (identity_ldap). */
  ldap: () => LdapSettings | null;
  fetch: typeof fetch;
}

const NO_PROVIDERS: StsProviders = { openid: () => null, ldap: () => null, fetch };

/** Builds the STS handler over the identity store. */
export function createStsHandler(
  iam: IamStore,
  now: () => number = Date.now,
  providers: StsProviders = NO_PROVIDERS,
) {
  return async (req: VerifiedRequest): Promise<Response> => {
    try {
      return await answer(iam, now, providers, req);
    } catch (error) {
      if (error instanceof StoreError) return stsErrorResponse(error, req.requestId);
      throw error;
    }
  };
}

/** Answers one STS call; every refusal is thrown as a StoreError and answered as STS's error. */
async function answer(
  iam: IamStore,
  now: () => number,
  providers: StsProviders,
  req: VerifiedRequest,
): Promise<Response> {
  const form = new URLSearchParams(new TextDecoder().decode(req.body));
  for (const [k, v] of req.url.searchParams) if (!form.has(k)) form.set(k, v);
  const action = form.get("Action");
  if (form.get("Version") !== "2011-06-15") {
    throw new StoreError("MissingParameter", "Missing or invalid Version parameter", 400);
  }
  if (action === "AssumeRoleWithWebIdentity") {
    const settings = providers.openid();
    if (settings) return await assumeRoleWithWebIdentity(iam, settings, form, req, now(), providers.fetch);
  }
  if (action === "AssumeRoleWithLDAPIdentity") {
    const settings = providers.ldap();
    if (settings) {
      return await assumeRoleWithLdapIdentity(iam, settings, form, req, now(), {
        durationOf,
        sessionPolicyOf: (f) => sessionPolicyOf(f),
        issueSession: (session) => issueSession(iam, session),
        xmlAnswer,
      });
    }
  }
  if (
    action === "AssumeRoleWithWebIdentity" || action === "AssumeRoleWithLDAPIdentity" ||
    action === "AssumeRoleWithClientGrants"
  ) {
    throw new StoreError(
      "InvalidParameterValue",
      `${action} is not configured on this server: set up identity_openid or identity_ldap first`,
      400,
    );
  }
  if (action !== "AssumeRole") {
    throw new StoreError("InvalidParameterValue", `Unsupported action ${action}`, 400);
  }
  return await assumeRole(iam, form, req, now());
}

const badDuration = () =>
  new StoreError(
    "InvalidParameterValue",
    "Invalid token expiry: DurationSeconds must be between 900 and 31536000",
    400,
  );

/** DurationSeconds as sent: 900 s to a year; `fallback` when there is none. */
function durationOf(text: string | null, fallback: () => number): number {
  if (text === null) return fallback();
  if (!/^\d+$/.test(text) || Number(text) < 900 || Number(text) > 31536000) throw badDuration();
  return Number(text);
}

/** The form's session policy, checked (AssumeRole also bounds its length); undefined without one. */
function sessionPolicyOf(form: URLSearchParams, maxLength = Infinity): unknown {
  const policyText = form.get("Policy");
  if (!policyText) return undefined;
  const { problems } = checkPolicy(policyText);
  if (problems.length) {
    throw new StoreError("InvalidParameterValue", `Invalid session policy: ${problems[0].message}`, 400);
  }
  if (JSON.stringify(JSON.parse(policyText)).length > maxLength) {
    throw new StoreError("InvalidParameterValue", "Session policy should not exceed 2048 characters", 400);
  }
  return JSON.parse(policyText);
}

/** Makes up a session's keys and token, keeps the session, and gives its Credentials element. */
async function issueSession(
  iam: IamStore,
  session: Omit<Parameters<IamStore["putSession"]>[0], "accessKey" | "secretKey" | "sessionToken">,
) {
  const { accessKey, secretKey } = generateCredentials();
  const sessionToken = crypto.getRandomValues(new Uint8Array(48)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
  await iam.putSession({ accessKey, secretKey, sessionToken, ...session });
  return {
    AccessKeyId: accessKey,
    SecretAccessKey: secretKey,
    SessionToken: sessionToken,
    Expiration: new Date(session.expiresAt).toISOString().replace(".000", ""),
  };
}

const xmlAnswer = (root: string, body: XmlObject) =>
  new Response(buildXml(root, body, { namespace: NS }), { headers: { "content-type": "application/xml" } });

/** AssumeRole (minio-protocol §2.2): a long-term user or root buys temporary credentials. */
async function assumeRole(
  iam: IamStore,
  form: URLSearchParams,
  req: VerifiedRequest,
  nowMs: number,
): Promise<Response> {
  const cred = req.credential;
  if (!cred) {
    throw new StoreError(
      "AccessDenied",
      "Generating temporary credentials not allowed for this request.",
      403,
    );
  }
  if (cred.kind !== "user" && cred.kind !== "root") {
    throw new StoreError(
      "AccessDenied",
      "Temporary credentials and service accounts cannot generate temporary credentials.",
      403,
    );
  }
  const duration = durationOf(form.get("DurationSeconds"), () => 3600);
  const sessionPolicy = sessionPolicyOf(form, 2048);
  const credentials = await issueSession(iam, {
    parentUser: cred.parentUser,
    expiresAt: Math.floor(nowMs / 1000 + duration) * 1000,
    sessionPolicy,
    revokeType: form.get("TokenRevokeType") || undefined,
  });
  return xmlAnswer("AssumeRoleResponse", {
    AssumeRoleResult: { AssumedRoleUser: { Arn: "", AssumeRoleId: "" }, Credentials: credentials },
    ResponseMetadata: { RequestId: req.requestId },
  });
}

/**
 * AssumeRoleWithWebIdentity (minio-protocol §2.3): a token from the configured OpenID provider, verified,
 * buys temporary credentials whose permissions are the policies its claim names.
 */
async function assumeRoleWithWebIdentity(
  iam: IamStore,
  settings: OpenIdSettings,
  form: URLSearchParams,
  req: VerifiedRequest,
  nowMs: number,
  fetcher: typeof fetch,
): Promise<Response> {
  const token = form.get("WebIdentityToken") ?? form.get("Token");
  if (!token) throw new StoreError("MissingParameter", "WebIdentityToken is required", 400);
  let identity;
  try {
    identity = await verifyWebIdentity(settings, token, nowMs, fetcher);
  } catch (error) {
    // MinIO answers every token problem but expiry with InvalidParameterValue (sts-handlers.go).
    if (error instanceof WebIdentityError) throw new StoreError(error.code, error.message, 400);
    throw error;
  }
  const claim = `${settings.claimPrefix}${settings.claimName}`;
  if (identity.policies === null) {
    throw new StoreError(
      "InvalidParameterValue",
      `${claim} claim missing from the JWT token, credentials will not be generated`,
      400,
    );
  }
  const known = identity.policies.filter((name) => iam.policies.has(name));
  if (known.length === 0) {
    throw new StoreError(
      "InvalidParameterValue",
      `None of the given policies (\`${
        identity.policies.join(",")
      }\`) are defined, credentials will not be generated`,
      400,
    );
  }
  // As MinIO: DurationSeconds replaces the token's expiry; without it the credentials end with the token.
  const requested = form.get("DurationSeconds");
  const expiresAt = requested ? nowMs + durationOf(requested, () => 0) * 1000 : identity.expiresAt * 1000;
  const sessionPolicy = sessionPolicyOf(form);
  const credentials = await issueSession(iam, {
    parentUser: identity.subject,
    expiresAt: Math.floor(expiresAt / 1000) * 1000,
    sessionPolicy,
    policies: known,
  });
  return xmlAnswer("AssumeRoleWithWebIdentityResponse", {
    AssumeRoleWithWebIdentityResult: {
      AssumedRoleUser: { Arn: "", AssumeRoleId: "" },
      Audience: identity.audience,
      Credentials: credentials,
      PackedPolicySize: 0,
      Provider: identity.issuer,
      SubjectFromWebIdentityToken: identity.subject,
    },
    ResponseMetadata: { RequestId: req.requestId },
  });
}
