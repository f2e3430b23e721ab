/**
 * What a session may do now: the account's effective policy as the storage server states it today, read with
 * the session's own credentials (admin account info), never what was true at sign-in. Pages, the menu,
 * `GET /api/v1/session`, the audit log search, the metrics widgets and the live streams all decide from this
 * one source, so they cannot disagree after a policy change, and a session the storage no longer accepts
 * (signed out, user disabled or deleted) gets nothing anywhere.
 *
 * One answer per session is kept for LIVE_ACCESS_TTL_MS so a page's many calls (28 widgets at once) ask the
 * storage once. Ending sessions through the console (server/console/services/session_revocation.ts) forgets the
 * affected answers at once; a change made elsewhere (another replica, `mc`) shows within the TTL.
 *
 * A session in use has its answer renewed before it runs out: a request that finds it in its last part
 * (from a point drawn per answer, so sessions signed in together do not all ask at once) is served the
 * answer, which still stands, and the storage is asked in the background. Waiting for the storage whenever
 * an answer ran out held every request of the session meanwhile, and under load 200 sessions signed in
 * together ran out together: bursts of account-info calls that stalled all their pages (docs/benchmark-notes.md).
 */
import { ApiError, toApiError } from "../http/errors.ts";
import { evaluate } from "../../lib/policy/evaluate.ts";
import { normalizePolicy, type Policy } from "../../lib/policy/types.ts";
import { type AccountInfo, accountInfo } from "../../lib/s3/admin/info.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { clientFor, type StorageAccess } from "./clients.ts";
import { servablePages, serverCapabilities } from "./capabilities.ts";
import { plainS3Access } from "./direct_keys.ts";
import { allowActionsOf, allowedPages, OPERATOR_PAGES } from "./pages.ts";
import type { SessionData } from "./token.ts";

/** What reading a session's access needs: the storage, and a clock for how long an answer stands. */
export interface LiveAccessDeps extends StorageAccess {
  now: () => number;
}

/** How long one answer of the storage stands for a session. */
export const LIVE_ACCESS_TTL_MS = 3000;
/** The part of an answer's life after which a request renews it in the background: from 2 to 2.75 s. */
const RENEW_FROM_MS = 2000;
const RENEW_SPREAD_MS = 750;
const MAX_ENTRIES = 4096;

export interface LiveAccess {
  /** The account the storage names (the parent user of the session's temporary credentials). */
  account: string;
  /** Allow actions of the effective policy: what the page rules read (api-index §13). */
  actions: string[];
  /** The effective policy; null when the storage would not say (then nothing is allowed). */
  policy: Policy | null;
  /** Route patterns the session may see, in sidebar order. */
  pages: string[];
  /** Whether the storage server runs erasure-coded (distributed) mode. */
  distributed: boolean;
}

interface Entry {
  endpoint: string;
  /** When the storage was asked (the answer is at least this fresh). */
  at: number;
  access: Promise<LiveAccess>;
  account?: string;
  /** Age from which a request renews the answer in the background. */
  renewAfter: number;
  renewing?: boolean;
}

const entries = new Map<string, Entry>();

const OPERATOR_ACCESS: LiveAccess = {
  account: "",
  actions: [],
  policy: null,
  pages: OPERATOR_PAGES,
  distributed: false,
};

/** Storage answers meaning "these credentials are no longer accepted": the session has ended. */
const ENDED = new Set(["InvalidAccessKeyId", "ExpiredToken", "InvalidTokenId"]);

function keyOf(endpoint: string, accessKey: string): string {
  return `${endpoint}\n${accessKey}`;
}

/** The access that account info describes, for a session signed in this way. */
export function accessFrom(info: AccountInfo, sso: boolean): LiveAccess {
  const actions = allowActionsOf(info.Policy);
  return {
    account: info.AccountName ?? "",
    actions,
    policy: info.Policy ? normalizePolicy(info.Policy) : null,
    pages: allowedPages(actions, { sso }),
    distributed: info.Server?.Type === 2,
  };
}

/** The session's access, with the pages the storage server cannot serve left out (capabilities.ts). */
async function read(deps: LiveAccessDeps, session: SessionData): Promise<LiveAccess> {
  const caps = await serverCapabilities(deps, session);
  // Without MinIO's admin API there is no account policy to read (keys sessions, or a server with STS only).
  const access = session.directKeys || caps.adminApi === "no"
    ? await plainS3Access(deps, session)
    : await readAccess(deps, session);
  return { ...access, pages: servablePages(access.pages, caps) };
}

async function readAccess(deps: StorageAccess, session: SessionData): Promise<LiveAccess> {
  try {
    return accessFrom(await accountInfo(clientFor(deps, session)), session.sso);
  } catch (error) {
    if (error instanceof S3Error && ENDED.has(error.code)) {
      throw ApiError.unauthorized("invalid session", "the storage server no longer accepts this session");
    }
    // Recent MinIO releases answer AccessDenied for a disabled user's credentials: they may do nothing.
    if (error instanceof S3Error && error.status === 403) {
      return {
        account: "",
        actions: [],
        policy: null,
        pages: allowedPages([], { sso: session.sso }),
        distributed: session.distributed,
      };
    }
    throw toApiError(error);
  }
}

function remember(
  deps: Pick<LiveAccessDeps, "storage" | "now">,
  session: SessionData,
  access: Promise<LiveAccess>,
) {
  return install(keyOf(deps.storage.url, session.accessKey), {
    endpoint: deps.storage.url,
    at: deps.now(),
    access,
    renewAfter: RENEW_FROM_MS + Math.random() * RENEW_SPREAD_MS,
  });
}

function install(key: string, entry: Entry): Promise<LiveAccess> {
  const { access } = entry;
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  access.then(
    (found) => (entry.account = found.account),
    () => entries.get(key) === entry && entries.delete(key),
  );
  return access;
}

/**
 * The session's access now (at most LIVE_ACCESS_TTL_MS old, or `fresh`). Rejects with 401 when the storage
 * no longer accepts the session, and with the storage's error when it cannot be asked.
 */
export function liveAccess(
  deps: LiveAccessDeps,
  session: SessionData,
  options: { fresh?: boolean } = {},
): Promise<LiveAccess> {
  // Operator sessions carry a Kubernetes token: Kubernetes RBAC decides, per call.
  if (session.k8sToken) return Promise.resolve(OPERATOR_ACCESS);
  const key = keyOf(deps.storage.url, session.accessKey);
  const found = entries.get(key);
  const age = found ? deps.now() - found.at : Infinity;
  if (!found || options.fresh || age < 0 || age >= LIVE_ACCESS_TTL_MS) {
    return remember(deps, session, read(deps, session));
  }
  if (age >= found.renewAfter && !found.renewing) renewInBackground(deps, session, key, found);
  return found.access;
}

/**
 * Asks the storage again while `current` still stands. The new answer replaces it only if nothing else did
 * meanwhile (a sign-out forgets the entry: an answer asked for before it must not come back). A failure
 * (the session ended, the storage unreachable) drops the entry, so the next request asks and waits.
 */
function renewInBackground(deps: LiveAccessDeps, session: SessionData, key: string, current: Entry): void {
  current.renewing = true;
  const at = deps.now();
  const access = read(deps, session);
  access.then(
    () => {
      if (entries.get(key) !== current) return;
      install(key, { ...current, at, access, renewing: false });
    },
    () => entries.get(key) === current && entries.delete(key),
  );
}

/** Keeps what sign-in already read, so the first page does not ask again. */
export function rememberAccess(
  deps: Pick<LiveAccessDeps, "storage" | "now">,
  session: SessionData,
  access: LiveAccess,
): void {
  remember(deps, session, Promise.resolve(access));
}

/**
 * Forgets answers after sessions ended through this console: one session's (by its access key) or every
 * session of an account.
 */
export function forgetAccess(endpoint: string, target: { accessKey?: string; account?: string }): void {
  if (target.accessKey !== undefined) entries.delete(keyOf(endpoint, target.accessKey));
  if (target.account === undefined) return;
  for (const [key, entry] of entries) {
    if (entry.endpoint === endpoint && entry.account === target.account) entries.delete(key);
  }
}

/**
 * Whether the policy allows `action` (on `bucket` for s3 actions), evaluated as the storage does: an explicit
 * Deny wins and wildcards count (`admin:*` allows admin:OBDInfo).
 */
export function allows(access: LiveAccess, action: string, bucket = ""): boolean {
  if (!access.policy) return false;
  return evaluate([{ name: "account", policy: access.policy }], { action, bucket, key: "" }).allowed;
}

/** Resolves when the session may do `action` now; 401 for a dead session, 403 naming the action otherwise. */
export async function requireAction(
  deps: LiveAccessDeps,
  session: SessionData,
  action: string,
  what: string,
): Promise<LiveAccess> {
  const access = await liveAccess(deps, session);
  if (!allows(access, action)) throw ApiError.forbidden("access denied", `${what} needs ${action}`);
  return access;
}
