/**
 * What every area of the console receives: configuration, logging, page rendering and how to reach the
 * storage server. Built once in main.ts (or by tests) and passed down; nothing reads globals.
 */
import type { AppConfig } from "./config.ts";
import type { Logger } from "./log.ts";
import type { PageRenderer } from "./render/page.tsx";
import type { LoginThrottle } from "./session/login_throttle.ts";
import type { SessionData } from "./session/token.ts";

/** Where the storage server (external MinIO or the embedded one) is reached, always over HTTP. */
export interface StorageEndpoint {
  /** Origin such as http://127.0.0.1:9000 (no trailing slash). */
  url: string;
  /** Region used to sign STS requests ("" for MinIO's default). */
  region: string;
}

export interface AppDeps {
  config: AppConfig;
  log: Logger;
  render: PageRenderer;
  storage: StorageEndpoint;
  /** fetch used for every storage call but streamed uploads (server/s3/stream_upload.ts); injectable so unit tests can stub it. */
  fetch: typeof fetch;
  /** Clock in epoch milliseconds; injectable for expiry tests. */
  now: () => number;
  /** Key sealing session cookies (server/session/token.ts). */
  sessionKey: CryptoKey;
  /** Slows down repeated failed sign-ins from one address. */
  loginThrottle: LoginThrottle;
}

/** Hono environment: per-request variables set by middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The signed-in session, or null; set by loadSession for every request. */
    session: SessionData | null;
  };
}
