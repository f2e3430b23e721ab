/**
 * What every area of the console (api/, ws/, proxy/, the pages in routes/) receives: configuration, logging,
 * page rendering and how to reach the storage server. Built once by the composition root
 * (server/start/deck.ts) and passed down; nothing reads globals. The layers below (services/, session/,
 * metrics/, k8s/, render/) never see it: each takes only what it uses.
 */
import type { AppConfig } from "./config/config.ts";
import type { LogSearchEndpoint, StorageEndpoint } from "./config/endpoints.ts";
import type { OperatorDeps } from "./k8s/connection.ts";
import type { Logger } from "../lib/http/log.ts";
import type { MetricsService } from "./metrics/mod.ts";
import type { LicenseStore } from "./license/store.ts";
import type { JobManager } from "./services/jobs.ts";
import type { PageRenderer } from "./render/page.tsx";
import type { LoginThrottle } from "./session/login_throttle.ts";

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
  /** Copy, move and delete jobs on many objects, run with their owners' sessions (services/jobs.ts). */
  jobs: JobManager;
  /** Audit log search; absent when none is available (Audit Logs is then disabled). */
  logSearch?: LogSearchEndpoint | null;
  /** Operator mode only: the Kubernetes API and the console's place in the cluster. */
  operator?: OperatorDeps;
}
