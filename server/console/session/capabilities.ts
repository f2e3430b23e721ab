/**
 * What the storage server speaks, asked over the wire (server/lib/s3/probe.ts) at sign-in and on demand, and
 * kept per endpoint: it is a fact about the server, the same for every session. Sessions add what only a
 * signed request can learn (the MinIO release, a bucket's features), filled in the first time one can.
 * Pages, the menu, the command palette and GET /api/v1/session all filter with it through live access
 * (server/console/session/live_access.ts), so an area the server cannot serve is hidden everywhere at once.
 */
import type { ServerCapabilities } from "../../lib/contract/capabilities.ts";
import { serverInfo } from "../../lib/s3/admin/info.ts";
import { listBuckets } from "../../lib/s3/ops/buckets.ts";
import { probeBucketFeatures, probeWire } from "../../lib/s3/probe.ts";
import { clientFor, type StorageAccess } from "./clients.ts";
import type { SessionData } from "./token.ts";

export interface CapabilityDeps extends StorageAccess {
  now: () => number;
  /** An OpenID provider is configured (single sign-on is offered). */
  config?: { idp?: unknown };
}

/** How long an answer stands before the next request asks again: servers are upgraded, not changed per call. */
export const CAPABILITIES_TTL_MS = 10 * 60_000;

/** How soon a session asks again for bucket features when there was no bucket to ask about. */
const NO_BUCKET_RETRY_MS = 15_000;

interface Entry {
  at: number;
  value: Promise<ServerCapabilities>;
  /** When a session last filled in the signed part (once per lifetime, sooner while no bucket was found). */
  signedAt?: number;
  /** Set once that fill is answered: how long its answer stands. */
  signedFor?: number;
}

const entries = new Map<string, Entry>();

async function ask(deps: CapabilityDeps, session: SessionData | null): Promise<ServerCapabilities> {
  const wire = await probeWire(deps.storage.url, deps.fetch);
  const caps: ServerCapabilities = {
    endpoint: deps.storage.url,
    server: wire.serverHeader,
    adminApi: wire.adminApi,
    minioVersion: null,
    metrics: wire.metrics,
    sts: wire.sts,
    identityModes: [],
    s3: {
      versioning: "unknown",
      objectLock: "unknown",
      tagging: "unknown",
      lifecycle: "unknown",
      probedBucket: null,
    },
    checkedAt: new Date(deps.now()).toISOString(),
  };
  if (session) await addSigned(deps, session, caps);
  return caps;
}

/** Fills in what needs a signature, as far as this session may read it; a refusal leaves "unknown". */
async function addSigned(deps: CapabilityDeps, session: SessionData, caps: ServerCapabilities) {
  const client = clientFor(deps, session);
  const version = caps.adminApi === "yes" && caps.minioVersion === null
    ? serverInfo(client, AbortSignal.timeout(5000)).then(
      (info) => info.servers?.[0]?.version ?? null,
      () => null,
    )
    : Promise.resolve(caps.minioVersion);
  const features = caps.s3.probedBucket === null
    ? listBuckets(client).then(async (buckets) => {
      const bucket = buckets[0]?.name;
      return bucket ? { ...await probeBucketFeatures(client, bucket), probedBucket: bucket } : null;
    }, () => null)
    : Promise.resolve(null);
  const [minioVersion, s3] = await Promise.all([version, features]);
  caps.minioVersion = minioVersion;
  if (s3) caps.s3 = s3;
}

function withModes(deps: CapabilityDeps, caps: ServerCapabilities): ServerCapabilities {
  const modes: ServerCapabilities["identityModes"] = [];
  // Sign-in uses STS only on MinIO (server/console/services/session.ts): a server with STS but without the admin
  // API is signed in to with keys. One that did not answer either question is tried with STS.
  const minioSts = caps.sts !== "no" && caps.adminApi !== "no";
  modes.push(minioSts ? "sts" : "access-keys");
  if (deps.config?.idp && caps.sts === "yes") modes.push("openid");
  return { ...caps, identityModes: modes };
}

/**
 * The server's capabilities: the kept answer while it is younger than CAPABILITIES_TTL_MS, else asked again.
 * `fresh` asks now (sign-in, the Refresh action). With a session, what only a signed request can learn and is
 * still missing is asked too. Never rejects: an unanswered question reads "unknown".
 */
export async function serverCapabilities(
  deps: CapabilityDeps,
  session: SessionData | null,
  options: { fresh?: boolean } = {},
): Promise<ServerCapabilities> {
  const key = deps.storage.url;
  const now = deps.now();
  const found = entries.get(key);
  const stale = (at: number | undefined, lifetime = CAPABILITIES_TTL_MS) =>
    at === undefined || now - at < 0 || now - at >= lifetime;
  let entry = found;
  if (!found || options.fresh || stale(found.at)) {
    entry = { at: now, value: ask(deps, session), signedAt: session ? now : undefined };
    entries.set(key, entry);
    if (session) lifetimeOfSigned(entry);
  } else if (
    session &&
    (found.signedAt === undefined ||
      (found.signedFor !== undefined && stale(found.signedAt, found.signedFor)))
  ) {
    // Only the first session to come by fills the gap; the others use the answer as it stands meanwhile.
    found.signedAt = now;
    const filled = found.value.then(async (kept) => {
      const next = { ...kept, s3: { ...kept.s3 } };
      await addSigned(deps, session, next);
      return next;
    });
    entry = { ...found, value: filled, signedFor: undefined };
    entries.set(key, entry);
    lifetimeOfSigned(entry);
  }
  return withModes(deps, await entry!.value);
}

/** Once the signed part is answered: it stands for the lifetime, or briefly when there was no bucket yet. */
function lifetimeOfSigned(entry: Entry): void {
  entry.value.then((caps) => {
    entry.signedFor = caps.s3.probedBucket === null ? NO_BUCKET_RETRY_MS : CAPABILITIES_TTL_MS;
  });
}

/**
 * A bucket was created through the console: when the kept answer had no bucket to read features from, the next
 * session to come by asks again (the create dialog then leaves out what the server lacks).
 */
export function bucketCreated(endpoint: string): void {
  const entry = entries.get(endpoint);
  if (entry?.signedFor === NO_BUCKET_RETRY_MS) entry.signedFor = 0;
}

/** Forgets every kept answer (tests that point one endpoint at another server). */
export function forgetCapabilities(): void {
  entries.clear();
}

/** What an area needs of the server, and the sentence a page reached directly shows when it is missing. */
export interface MissingCapability {
  /** Short name of the missing protocol, e.g. "MinIO's admin API". */
  what: string;
  /** Why the page cannot work without it. */
  why: string;
}

const ADMIN_API: MissingCapability = {
  what: "MinIO's admin API",
  why: "this server does not speak MinIO's admin API, which this page needs",
};

const LISTEN: MissingCapability = {
  what: "MinIO's bucket notification stream",
  why: "this server does not speak MinIO's admin API, and only MinIO streams bucket events to watch",
};

/** Route prefixes served only through MinIO's admin API (or its MinIO-only S3 extensions). */
const NEEDS_ADMIN: [RegExp, MissingCapability][] = [
  [/^\/(dashboard|metrics)(\/|$)/, ADMIN_API],
  [/^\/account(\/|$)/, ADMIN_API],
  [/^\/(users|groups|policies)(\/|$)/, ADMIN_API],
  [/^\/(settings|webhook)(\/|$)/, ADMIN_API],
  [/^\/(logs|trace|heal|health-info|profiling|audit-logs|tools)(\/|$)/, ADMIN_API],
  [/^\/(remote-buckets|replication)(\/|$)/, ADMIN_API],
  [/^\/watch(\/|$)/, LISTEN],
  // A bucket's sections built on admin calls: its users and policies, replication targets, event targets.
  [/^\/buckets\/[^/]+\/(access|replication|events)(\/|$)/, ADMIN_API],
];

/**
 * What the page at `path` (or the route pattern) needs that this server lacks; null when nothing is known to
 * be missing ("unknown" does not hide anything: a server that did not answer is not declared lacking).
 */
export function missingCapability(path: string, caps: ServerCapabilities): MissingCapability | null {
  if (caps.adminApi !== "no") return null;
  return NEEDS_ADMIN.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

/** The route patterns of `pages` this server can serve. */
export function servablePages(pages: string[], caps: ServerCapabilities): string[] {
  return pages.filter((page) => !missingCapability(page, caps));
}

/** A server that is not MinIO but implements versioning: its buckets show the versioning controls. */
export function plainVersioning(caps: ServerCapabilities): boolean {
  return caps.adminApi === "no" && caps.s3.versioning === "yes";
}
