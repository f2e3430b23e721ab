/**
 * What every area of the console receives: configuration, logging, page rendering and how to reach the
 * storage server. Built once by the composition root (server/start/deck.ts) and passed down; nothing reads
 * globals.
 */
import type { AppConfig, OperatorConfig } from "./config.ts";
import type { K8sClient } from "./k8s/client.ts";
import type { Logger } from "../lib/http/log.ts";
import type { MetricsService } from "./metrics/mod.ts";
import type { LicenseStore } from "./services/license.ts";
import type { PageRenderer } from "./render/page.tsx";
import type { LoginThrottle } from "./session/login_throttle.ts";
import type { SessionData } from "./session/token.ts";
import type { LiveAccess } from "./session/live_access.ts";

/** Where the storage server (external MinIO or the embedded one) is reached, always over HTTP. */
export interface StorageEndpoint {
  /** Origin such as http://127.0.0.1:9000 (no trailing slash). */
  url: string;
  /** Region used to sign STS requests ("" for MinIO's default). */
  region: string;
  /**
   * Key to vouch for the client address of a sign-in (server/lib/s3/forwarded_client.ts); known when the console
   * started the storage. Without it the storage sees every sign-in as coming from the console.
   */
  forwardingKey?: string;
}

/** The audit log search the console queries (Log Search API, minio-protocol-2 §3.4). */
export interface LogSearchEndpoint {
  /** Origin of the service: an external one, or the built-in listener. */
  url: string;
  /** The query token. */
  token: string;
  /** How to reach it: the built-in service answers in-process through its own fetch handler. */
  fetch: typeof fetch;
}

export interface AppDeps {
  config: AppConfig;
  log: Logger;
  render: PageRenderer;
  storage: StorageEndpoint;
  /** fetch used for every storage call but streamed uploads (server/lib/s3/stream_upload.ts); injectable so unit tests can stub it. */
  fetch: typeof fetch;
  /** Clock in epoch milliseconds; injectable for expiry tests. */
  now: () => number;
  /** Key sealing session cookies (server/console/session/token.ts). */
  sessionKey: CryptoKey;
  /** Slows down repeated failed sign-ins from one address. */
  loginThrottle: LoginThrottle;
  /** The dashboard's metrics source (external Prometheus or Deck's own sampler and history). */
  metrics: MetricsService;
  /** The subscription shown on the License page, verified offline. */
  license: LicenseStore;
  /** Audit log search; absent when none is available (Audit Logs is then disabled). */
  logSearch?: LogSearchEndpoint | null;
  /** Operator mode only: the Kubernetes API and the console's place in the cluster. */
  operator?: OperatorDeps;
}

export interface OperatorDeps {
  k8s: K8sClient;
  config: OperatorConfig;
  /** The console's own service-account token, for sessions opened through SSO ("" when none). */
  serviceAccountToken: string;
}

/** Hono environment: per-request variables set by middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The signed-in session, or null; set by loadSession for every request. */
    session: SessionData | null;
    /** What the session may do now (server/console/session/live_access.ts); set by the page guard for pages. */
    access?: LiveAccess;
  };
}
