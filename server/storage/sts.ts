/**
 * STS (minio-protocol §2): AssumeRole issues temporary credentials for a long-term user or root, with an
 * optional session policy; the web-identity and LDAP actions answer "not configured" until an identity
 * provider is set up.
 */
import { checkPolicy } from "../lib/policy/validate.ts";
import { buildXml } from "../lib/s3/xml.ts";
import { StoreError, stsErrorResponse } from "./core/errors.ts";
import type { VerifiedRequest } from "./core/contracts.ts";
import { type OpenIdSettings, verifyWebIdentity, WebIdentityError } from "./iam/openid.ts";
import { generateCredentials, type IamStore } from "./iam/store.ts";

const NS = "https://sts.amazonaws.com/doc/2011-06-15/";

export interface StsProviders {
  /** The configured OpenID provider, or null (identity_openid). */
  openid: () => OpenIdSettings | null;
  /** Whether identity_ldap is configured (stored and validated; LDAP sign-in itself is not implemented). */
  ldapConfigured: () => boolean;
  fetch: typeof fetch;
}

const NO_PROVIDERS: StsProviders = { openid: () => null, ldapConfigured: () => false, fetch };

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
  if (action === "AssumeRoleWithLDAPIdentity" && providers.ldapConfigured()) {
    throw new StoreError(
      "NotImplemented",
      "LDAP sign-in is not implemented by the embedded storage: identity_ldap is stored and validated only",
      501,
    );
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
  const durationText = form.get("DurationSeconds") ?? "3600";
  const duration = Number(durationText);
  if (!/^\d+$/.test(durationText) || duration < 900 || duration > 31536000) {
    throw new StoreError(
      "InvalidParameterValue",
      "Invalid token expiry: DurationSeconds must be between 900 and 31536000",
      400,
    );
  }
  let sessionPolicy: unknown;
  const policyText = form.get("Policy");
  if (policyText) {
    const { problems } = checkPolicy(policyText);
    if (problems.length) {
      throw new StoreError(
        "InvalidParameterValue",
        `Invalid session policy: ${problems[0].message}`,
        400,
      );
    }
    if (JSON.stringify(JSON.parse(policyText)).length > 2048) {
      throw new StoreError(
        "InvalidParameterValue",
        "Session policy should not exceed 2048 characters",
        400,
      );
    }
    sessionPolicy = JSON.parse(policyText);
  }
  const { accessKey, secretKey } = generateCredentials();
  const sessionToken = crypto.getRandomValues(new Uint8Array(48)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
  const expiresAt = Math.floor(nowMs / 1000 + duration) * 1000;
  const revokeType = form.get("TokenRevokeType") || undefined;
  await iam.putSession({
    accessKey,
    secretKey,
    sessionToken,
    parentUser: cred.parentUser,
    expiresAt,
    sessionPolicy,
    revokeType,
  });
  const body = buildXml("AssumeRoleResponse", {
    AssumeRoleResult: {
      AssumedRoleUser: { Arn: "", AssumeRoleId: "" },
      Credentials: {
        AccessKeyId: accessKey,
        SecretAccessKey: secretKey,
        SessionToken: sessionToken,
        Expiration: new Date(expiresAt).toISOString().replace(".000", ""),
      },
    },
    ResponseMetadata: { RequestId: req.requestId },
  }, { namespace: NS });
  return new Response(body, { headers: { "content-type": "application/xml" } });
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
    if (error instanceof WebIdentityError) {
      throw new StoreError(error.code, error.message, error.code === "AccessDenied" ? 403 : 400);
    }
    throw error;
  }
  const known = identity.policies.filter((name) => iam.policies.has(name));
  if (known.length === 0) {
    const claim = `${settings.claimPrefix}${settings.claimName}`;
    throw new StoreError(
      "AccessDenied",
      identity.policies.length
        ? `None of the given policies (${identity.policies.join(",")}) are defined`
        : `The token carries no policy in its '${claim}' claim`,
      403,
    );
  }
  const durationText = form.get("DurationSeconds");
  if (
    durationText &&
    (!/^\d+$/.test(durationText) || Number(durationText) < 900 || Number(durationText) > 31536000)
  ) {
    throw new StoreError(
      "InvalidParameterValue",
      "Invalid token expiry: DurationSeconds must be between 900 and 31536000",
      400,
    );
  }
  const seconds = durationText
    ? Number(durationText)
    : Math.max(900, identity.expiresAt - Math.floor(nowMs / 1000));
  let sessionPolicy: unknown;
  const policyText = form.get("Policy");
  if (policyText) {
    const { problems } = checkPolicy(policyText);
    if (problems.length) {
      throw new StoreError(
        "InvalidParameterValue",
        `Invalid session policy: ${problems[0].message}`,
        400,
      );
    }
    sessionPolicy = JSON.parse(policyText);
  }
  const { accessKey, secretKey } = generateCredentials();
  const sessionToken = crypto.getRandomValues(new Uint8Array(48)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
  const expiresAt = Math.floor(nowMs / 1000 + seconds) * 1000;
  await iam.putSession({
    accessKey,
    secretKey,
    sessionToken,
    parentUser: identity.subject,
    expiresAt,
    sessionPolicy,
    policies: known,
  });
  const body = buildXml("AssumeRoleWithWebIdentityResponse", {
    AssumeRoleWithWebIdentityResult: {
      AssumedRoleUser: { Arn: "", AssumeRoleId: "" },
      Audience: identity.audience,
      Credentials: {
        AccessKeyId: accessKey,
        SecretAccessKey: secretKey,
        SessionToken: sessionToken,
        Expiration: new Date(expiresAt).toISOString().replace(".000", ""),
      },
      PackedPolicySize: 0,
      Provider: identity.issuer,
      SubjectFromWebIdentityToken: identity.subject,
    },
    ResponseMetadata: { RequestId: req.requestId },
  }, { namespace: NS });
  return new Response(body, { headers: { "content-type": "application/xml" } });
}
