/**
 * STS (minio-protocol §2): AssumeRole issues temporary credentials for a long-term user or root, with an
 * optional session policy; the web-identity and LDAP actions answer "not configured" until an identity
 * provider is set up.
 */
import { checkPolicy } from "../lib/policy/validate.ts";
import { buildXml } from "../lib/s3/xml.ts";
import type { VerifiedRequest } from "./contracts.ts";
import { type OpenIdSettings, verifyWebIdentity, WebIdentityError } from "./iam/openid.ts";
import { generateCredentials, type IamStore } from "./iam/store.ts";

const NS = "https://sts.amazonaws.com/doc/2011-06-15/";

function stsError(code: string, message: string, status: number, requestId: string): Response {
  const body = buildXml("ErrorResponse", {
    Error: { Type: "", Code: code, Message: message },
    RequestId: requestId,
  }, { namespace: NS });
  return new Response(body, { status, headers: { "content-type": "application/xml" } });
}

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
    const form = new URLSearchParams(new TextDecoder().decode(req.body));
    for (const [k, v] of req.url.searchParams) if (!form.has(k)) form.set(k, v);
    const action = form.get("Action");
    if (form.get("Version") !== "2011-06-15") {
      return stsError("MissingParameter", "Missing or invalid Version parameter", 400, req.requestId);
    }
    if (action === "AssumeRoleWithWebIdentity") {
      const settings = providers.openid();
      if (settings) return await assumeRoleWithWebIdentity(iam, settings, form, req, now(), providers.fetch);
    }
    if (action === "AssumeRoleWithLDAPIdentity" && providers.ldapConfigured()) {
      return stsError(
        "NotImplemented",
        "LDAP sign-in is not implemented by the embedded storage: identity_ldap is stored and validated only",
        501,
        req.requestId,
      );
    }
    if (
      action === "AssumeRoleWithWebIdentity" || action === "AssumeRoleWithLDAPIdentity" ||
      action === "AssumeRoleWithClientGrants"
    ) {
      return stsError(
        "InvalidParameterValue",
        `${action} is not configured on this server: set up identity_openid or identity_ldap first`,
        400,
        req.requestId,
      );
    }
    if (action !== "AssumeRole") {
      return stsError("InvalidParameterValue", `Unsupported action ${action}`, 400, req.requestId);
    }
    const cred = req.credential;
    if (!cred) {
      return stsError(
        "AccessDenied",
        "Generating temporary credentials not allowed for this request.",
        403,
        req.requestId,
      );
    }
    if (cred.kind !== "user" && cred.kind !== "root") {
      return stsError(
        "AccessDenied",
        "Temporary credentials and service accounts cannot generate temporary credentials.",
        403,
        req.requestId,
      );
    }
    const durationText = form.get("DurationSeconds") ?? "3600";
    const duration = Number(durationText);
    if (!/^\d+$/.test(durationText) || duration < 900 || duration > 31536000) {
      return stsError(
        "InvalidParameterValue",
        "Invalid token expiry: DurationSeconds must be between 900 and 31536000",
        400,
        req.requestId,
      );
    }
    let sessionPolicy: unknown;
    const policyText = form.get("Policy");
    if (policyText) {
      const { problems } = checkPolicy(policyText);
      if (problems.length) {
        return stsError(
          "InvalidParameterValue",
          `Invalid session policy: ${problems[0].message}`,
          400,
          req.requestId,
        );
      }
      if (JSON.stringify(JSON.parse(policyText)).length > 2048) {
        return stsError(
          "InvalidParameterValue",
          "Session policy should not exceed 2048 characters",
          400,
          req.requestId,
        );
      }
      sessionPolicy = JSON.parse(policyText);
    }
    const { accessKey, secretKey } = generateCredentials();
    const sessionToken = crypto.getRandomValues(new Uint8Array(48)).toBase64({
      alphabet: "base64url",
      omitPadding: true,
    });
    const expiresAt = Math.floor(now() / 1000 + duration) * 1000;
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
  };
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
  if (!token) return stsError("MissingParameter", "WebIdentityToken is required", 400, req.requestId);
  let identity;
  try {
    identity = await verifyWebIdentity(settings, token, nowMs, fetcher);
  } catch (error) {
    if (error instanceof WebIdentityError) {
      return stsError(error.code, error.message, error.code === "AccessDenied" ? 403 : 400, req.requestId);
    }
    throw error;
  }
  const known = identity.policies.filter((name) => iam.policies.has(name));
  if (known.length === 0) {
    const claim = `${settings.claimPrefix}${settings.claimName}`;
    return stsError(
      "AccessDenied",
      identity.policies.length
        ? `None of the given policies (${identity.policies.join(",")}) are defined`
        : `The token carries no policy in its '${claim}' claim`,
      403,
      req.requestId,
    );
  }
  const durationText = form.get("DurationSeconds");
  if (
    durationText &&
    (!/^\d+$/.test(durationText) || Number(durationText) < 900 || Number(durationText) > 31536000)
  ) {
    return stsError(
      "InvalidParameterValue",
      "Invalid token expiry: DurationSeconds must be between 900 and 31536000",
      400,
      req.requestId,
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
      return stsError(
        "InvalidParameterValue",
        `Invalid session policy: ${problems[0].message}`,
        400,
        req.requestId,
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
