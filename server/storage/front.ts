/**
 * What the parts of the embedded server's HTTP front share (s3_server.ts builds it): the options, the clock,
 * the streams requests are published on, signature checking with its guess throttle, and "100 Continue".
 * Each request carries its own facts (trace, metrics, audit) through the parts.
 */
import { GuessThrottle, throttledAuthenticate } from "./auth/guess_throttle.ts";
import type {
  AdminHandler,
  Credential,
  IdentityAuthority,
  ServerFacts,
  StsHandler,
} from "./core/contracts.ts";
import type { Store } from "./fs/store.ts";
import type { MetricsEndpoint } from "./metrics/mod.ts";
import { createStorageStreams, type StorageStreams } from "./streams/mod.ts";
import type { RequestFacts } from "./streams/requests.ts";

export interface FrontOptions {
  store: Store;
  authority: IdentityAuthority;
  facts: ServerFacts;
  admin: AdminHandler;
  sts: StsHandler;
  /** Domain for virtual-host-style requests (`bucket.domain`); path-style always works. */
  domain?: string;
  now?: () => number;
  /** Where requests, bucket events and log entries are published (a private set when omitted). */
  streams?: StorageStreams;
  /** Deployment id reported in event records. */
  deploymentId?: string;
  /** The Prometheus endpoints under /minio/v2/metrics/ (absent: those paths are S3 paths like any other). */
  metrics?: MetricsEndpoint;
  /**
   * Key of the console that started this server (server/lib/s3/forwarded_client.ts): a request vouched for with it
   * counts as coming from the client address it names (sign-ins through the console are throttled per person).
   */
  forwardingKey?: string;
}

/** The front's shared parts. */
export interface Front {
  options: FrontOptions;
  clock: () => number;
  streams: StorageStreams;
  guesses: GuessThrottle;
  verify: ReturnType<typeof throttledAuthenticate>;
  /**
   * A client that sent `Expect: 100-continue` waits for "100 Continue" before its body: it is sent once the
   * request is authenticated and authorised (or when the body is what authenticates it), so a refused client
   * is answered before it uploads anything.
   */
  sendContinue(request: Request): void;
  /** Registers how to send a request's "100 Continue" (a `deferContinue` listener's). */
  deferContinue(request: Request, send: () => void): void;
}

/** One request as the front's parts see it. */
export interface FrontRequest {
  request: Request;
  url: URL;
  sourceIp: string;
  requestId: string;
  /** What trace, metrics and audit report of it. */
  facts: RequestFacts;
}

export function createFront(options: FrontOptions): Front {
  const clock = options.now ?? Date.now;
  const guesses = new GuessThrottle(clock);
  const continues = new WeakMap<Request, () => void>();
  return {
    options,
    clock,
    streams: options.streams ?? createStorageStreams(),
    guesses,
    verify: throttledAuthenticate(options.authority, guesses),
    sendContinue: (request) => continues.get(request)?.(),
    deferContinue: (request, send) => continues.set(request, send),
  };
}

/** Records who signed the request for trace, metrics and audit. */
export function noteSigner(facts: RequestFacts, credential: Credential | null): void {
  if (!credential) return;
  facts.accessKey = credential.accessKey;
  facts.parentUser = credential.parentUser;
}

/** The bucket a virtual-host-style request names in its Host (`bucket.domain`), if any. */
export function virtualBucketOf(front: Front, request: Request, url: URL): string | undefined {
  const domain = front.options.domain;
  const hostname = (request.headers.get("host") ?? url.host).replace(/:\d+$/, "");
  return domain && hostname.endsWith(`.${domain}`) ? hostname.slice(0, -domain.length - 1) : undefined;
}
