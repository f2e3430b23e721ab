/** Service accounts (minio-protocol §3.7): add, list, info, update, delete — encrypted bodies, v3 shapes. */
import { hasBadPathComponent } from "../../lib/contract/iam_names.ts";
import { checkPolicy } from "../../lib/policy/validate.ts";
import { badComponents } from "../core/errors.ts";
import { generateCredentials, type ServiceAccountRecord } from "../iam/store.ts";
import { wantsServiceAccountNames } from "./client_era.ts";
import {
  type AdminContext,
  adminFail,
  decryptJson,
  empty,
  encryptedJson,
  requireAction,
  requiredParam,
} from "./context.ts";

const notFound = () =>
  adminFail("XMinioInvalidIAMCredentials", "The specified service account is not found", 404);
const NEVER = "1970-01-01T00:00:00Z";

function validatePolicy(policy: unknown): void {
  if (policy === undefined || policy === null) return;
  const { problems } = checkPolicy(JSON.stringify(policy, null, 1));
  if (problems.length) {
    throw adminFail("XMinioAdminInvalidArgument", `invalid policy: ${problems[0].message}`, 400);
  }
}

function validateExpiration(expiration: string | undefined, now: number): string | undefined {
  if (!expiration || expiration.startsWith("1970-01-01") || expiration.startsWith("0001-01-01")) {
    return undefined;
  }
  const at = Date.parse(expiration);
  if (Number.isNaN(at) || at <= now) {
    throw adminFail("XMinioAdminInvalidArgument", "the expiration must be a date in the future", 400);
  }
  return new Date(at).toISOString();
}

function checkSecret(secretKey: string): void {
  if (secretKey.length < 8 || secretKey.length > 40) {
    throw adminFail("XMinioAdminInvalidSecretKey", "secret key length should be between 8 and 40", 400);
  }
  // deno-lint-ignore no-control-regex -- a NUL or other control character cannot be typed into any client
  if (/[\u0000-\u001f\u007f]/.test(secretKey)) {
    throw adminFail("XMinioAdminInvalidSecretKey", "secret key must not contain control characters", 400);
  }
}

/** Own accounts need no permission unless a Deny names the action; others need the action. */
function requireOwnOr(ctx: AdminContext, owner: string, action: string): void {
  if (owner === ctx.credential.parentUser) {
    if (ctx.authority.decide(ctx.credential, action, "", "").effect === "Deny") {
      throw adminFail("AccessDenied", "Access Denied.", 403);
    }
    return;
  }
  requireAction(ctx, action);
}

export async function addServiceAccount(ctx: AdminContext): Promise<Response> {
  if (ctx.credential.kind === "serviceAccount") {
    throw adminFail("XMinioIAMActionNotAllowed", "Service accounts cannot create service accounts", 403);
  }
  const body = await decryptJson<
    {
      policy?: unknown;
      targetUser?: string;
      accessKey?: string;
      secretKey?: string;
      name?: string;
      description?: string;
      expiration?: string;
    }
  >(ctx);
  const owner = body.targetUser || ctx.credential.parentUser;
  requireOwnOr(ctx, owner, "admin:CreateServiceAccount");
  if (!ctx.authority.isRoot(owner) && !ctx.iam.users.has(owner)) {
    throw adminFail("XMinioAdminNoSuchUser", "The specified user does not exist.", 404);
  }
  const generated = generateCredentials();
  const accessKey = body.accessKey || generated.accessKey;
  const secretKey = body.secretKey || generated.secretKey;
  // deno-lint-ignore no-control-regex -- control characters (NUL above all) are exactly what is refused
  if (accessKey.length < 3 || accessKey.length > 20 || /[=,\s\u0000-\u001f\u007f]/.test(accessKey)) {
    throw adminFail(
      "XMinioAdminInvalidAccessKey",
      "access key length should be between 3 and 20 and contain no =, comma, space or control character",
      400,
    );
  }
  // Such a key could never be named in a query again (MinIO's check refuses it there): refuse it here.
  if (hasBadPathComponent(accessKey)) throw badComponents();
  checkSecret(secretKey);
  if (ctx.authority.lookupCredential(accessKey)) {
    throw adminFail("XMinioAdminInvalidAccessKey", "The access key is already in use", 409);
  }
  if (body.name && !/^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(body.name)) {
    throw adminFail(
      "XMinioAdminInvalidArgument",
      "the name must start with a letter and hold at most 32 letters, digits, - or _",
      400,
    );
  }
  if (body.description && new TextEncoder().encode(body.description).length > 256) {
    throw adminFail("XMinioAdminInvalidArgument", "the description is longer than 256 bytes", 400);
  }
  validatePolicy(body.policy);
  const record: ServiceAccountRecord = {
    accessKey,
    secretKey,
    parentUser: owner,
    policy: body.policy ?? undefined,
    name: body.name || undefined,
    description: body.description || undefined,
    expiration: validateExpiration(body.expiration, ctx.now()),
    status: "on",
    ...(body.secretKey ? {} : { generatedSecret: true }),
  };
  await ctx.iam.putServiceAccount(record);
  return await encryptedJson(ctx, {
    credentials: { accessKey, secretKey, expiration: record.expiration ?? NEVER },
  });
}

function summary(sa: ServiceAccountRecord) {
  return {
    parentUser: sa.parentUser,
    accountStatus: sa.status,
    impliedPolicy: sa.policy === undefined,
    accessKey: sa.accessKey,
    name: sa.name ?? "",
    description: sa.description ?? "",
    expiration: sa.expiration ?? NEVER,
  };
}

export async function listServiceAccounts(ctx: AdminContext): Promise<Response> {
  const user = ctx.query.get("user") || ctx.credential.parentUser;
  requireOwnOr(ctx, user, "admin:ListServiceAccounts");
  const accounts = [...ctx.iam.serviceAccounts.values()].filter((s) => s.parentUser === user).sort((
    a,
    b,
  ) => (a.accessKey < b.accessKey ? -1 : 1));
  // Older madmin clients decode a list of access keys and fail on objects (MinIO before RELEASE.2023-06-02).
  if (wantsServiceAccountNames(ctx.request.headers.get("user-agent"))) {
    return await encryptedJson(ctx, { accounts: accounts.map((a) => a.accessKey) });
  }
  return await encryptedJson(ctx, { accounts: accounts.map(summary) });
}

export async function infoServiceAccount(ctx: AdminContext): Promise<Response> {
  const sa = ctx.iam.serviceAccounts.get(requiredParam(ctx, "accessKey"));
  if (!sa) throw notFound();
  requireOwnOr(ctx, sa.parentUser, "admin:ListServiceAccounts");
  return await encryptedJson(ctx, {
    parentUser: sa.parentUser,
    accountStatus: sa.status,
    impliedPolicy: sa.policy === undefined,
    policy: sa.policy === undefined ? "" : JSON.stringify(sa.policy),
    name: sa.name ?? "",
    description: sa.description ?? "",
    expiration: sa.expiration ?? null,
  });
}

export async function updateServiceAccount(ctx: AdminContext): Promise<Response> {
  const sa = ctx.iam.serviceAccounts.get(requiredParam(ctx, "accessKey"));
  if (!sa) throw notFound();
  requireOwnOr(ctx, sa.parentUser, "admin:UpdateServiceAccount");
  const body = await decryptJson<
    {
      newPolicy?: unknown;
      newSecretKey?: string;
      newStatus?: string;
      newName?: string;
      newDescription?: string;
      newExpiration?: string;
    }
  >(ctx);
  const next = { ...sa };
  if (body.newPolicy !== undefined && body.newPolicy !== null) {
    const empty = typeof body.newPolicy === "object" && Object.keys(body.newPolicy as object).length === 0;
    if (!empty) validatePolicy(body.newPolicy);
    next.policy = empty ? undefined : body.newPolicy;
  }
  if (body.newSecretKey) {
    checkSecret(body.newSecretKey);
    next.secretKey = body.newSecretKey;
  }
  if (body.newStatus) {
    const on = ["on", "enabled"].includes(body.newStatus), off = ["off", "disabled"].includes(body.newStatus);
    if (!on && !off) throw adminFail("XMinioAdminInvalidArgument", "status must be on or off", 400);
    next.status = on ? "on" : "off";
  }
  if (body.newName !== undefined) next.name = body.newName || undefined;
  if (body.newDescription !== undefined) next.description = body.newDescription || undefined;
  if (body.newExpiration !== undefined) next.expiration = validateExpiration(body.newExpiration, ctx.now());
  await ctx.iam.putServiceAccount(next);
  return empty(204);
}

export async function deleteServiceAccount(ctx: AdminContext): Promise<Response> {
  const sa = ctx.iam.serviceAccounts.get(requiredParam(ctx, "accessKey"));
  if (!sa) throw notFound();
  requireOwnOr(ctx, sa.parentUser, "admin:RemoveServiceAccount");
  await ctx.iam.removeServiceAccount(sa.accessKey);
  return empty(204);
}
