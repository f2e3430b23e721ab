/**
 * Audit and logger webhooks (minio-protocol-2 §2): every request's audit entry goes to each enabled
 * `audit_webhook` target and every log entry to each `logger_webhook` target, as MinIO sends them: POSTed
 * with auth_token verbatim as Authorization, one JSON entry per request (`batch_size` 1, the default) or up
 * to `batch_size` entries as NDJSON. Targets follow the stored config as it changes: a target added with
 * set-config-kv receives the next request's entry, with no restart.
 *
 * Queueing and retries reuse the notification targets' runner and disk queue (../notify/runner.ts,
 * ../notify/queue_store.ts):
 * - with `queue_dir`, every entry is first appended to `<queue_dir>/<kind>-<name>/`, then sent from there in
 *   order and acknowledged once the endpoint took it: an outage or a restart loses none (up to `queue_size`
 *   entries waiting; beyond that new entries are dropped and counted) and sends none twice; failed sends are
 *   retried every `retry_interval` until they succeed;
 * - without it, entries wait in memory (up to `queue_size`); a failed send is retried every `retry_interval`,
 *   at most `max_retry` times (0: for ever), then its entries are dropped and counted.
 * Drops and outages are written to the server's log (which the console's Error Logs show), never silently.
 * Nothing is built or queued while no target is configured.
 */
import type { ServerConfig } from "../config/server_config.ts";
import { QueueStore } from "../notify/queue_store.ts";
import { lazyDelivery, TargetRunner } from "../notify/runner.ts";
import { canConnect, type Delivery, DeliveryError, durationSeconds, type Target } from "../notify/target.ts";
import { type LogContext, logEntry } from "../streams/log_entry.ts";
import type { LogEntry, StorageStreams } from "../streams/mod.ts";
import { auditEntryOf, internalAuditEntry, type InternalAuditEvent } from "./audit_entry.ts";
import type { ConfigTree } from "../core/contracts.ts";
import { httpClientTrusting } from "../../lib/http/trusted_cas.ts";

type Kind = "audit_webhook" | "logger_webhook";

/** Who sends: the deployment the entries name, and the certificates trusted besides the system's. */
interface Sender {
  deploymentId: string;
  caCerts?: string[];
}

export interface WebhookTargetConfig {
  kind: Kind;
  name: string;
  endpoint: string;
  authToken: string;
  clientCert: string;
  clientKey: string;
  proxy: string;
  queueSize: number;
  queueDir: string;
  batchSize: number;
  maxRetry: number;
  retryIntervalMs: number;
  httpTimeoutMs: number;
}

/** Deck's default queue size (the console's Queue Limit default, spec 2 §9); MinIO's is 100,000. */
const DEFAULT_QUEUE_SIZE = 10_000;
const MAX_QUEUE_SIZE = 1_000_000;
const DEFAULT_RETRY_INTERVAL_MS = 3000;
const DEFAULT_HTTP_TIMEOUT_MS = 5000;
/** A partial batch waits at most this long after the previous send for more entries (MinIO: 1 s). */
const PARTIAL_BATCH_WAIT_MS = 1000;
const USER_AGENT = "MinIO (linux; amd64) deck-embedded";

const positive = (
  value: string | undefined,
  fallback: number,
) => (Number(value) > 0 ? Math.floor(Number(value)) : fallback);
const millis = (
  value: string | undefined,
  fallback: number,
) => (durationSeconds(value) > 0 ? Math.round(durationSeconds(value) * 1000) : fallback);

/** The targets of one kind the stored configuration enables. */
export function targetsOf(tree: ConfigTree, kind: Kind): WebhookTargetConfig[] {
  return Object.entries(tree[kind] ?? {})
    .filter(([, values]) => values.enable !== "off" && !!values.endpoint)
    .map(([name, values]) => ({
      kind,
      name,
      endpoint: values.endpoint,
      authToken: values.auth_token ?? "",
      clientCert: values.client_cert ?? "",
      clientKey: values.client_key ?? "",
      proxy: kind === "logger_webhook" ? values.proxy ?? "" : "",
      queueSize: Math.min(MAX_QUEUE_SIZE, positive(values.queue_size, DEFAULT_QUEUE_SIZE)),
      queueDir: values.queue_dir ?? "",
      batchSize: positive(values.batch_size, 1),
      maxRetry: Number(values.max_retry) > 0 ? Math.floor(Number(values.max_retry)) : 0,
      retryIntervalMs: millis(values.retry_interval, DEFAULT_RETRY_INTERVAL_MS),
      httpTimeoutMs: millis(values.http_timeout, DEFAULT_HTTP_TIMEOUT_MS),
    }));
}

/** The directory of one target's disk queue: a name of safe characters only, so no name can leave queue_dir. */
export function queueDirOf(config: WebhookTargetConfig): string {
  const name = config.name === "_"
    ? "default"
    : config.name.replace(/[^A-Za-z0-9_.-]/g, (ch) => `%${ch.charCodeAt(0).toString(16)}`).replace(
      /^\.+/,
      (dots) => "%2e".repeat(dots.length),
    );
  return `${config.queueDir.replace(/\/+$/, "")}/${config.kind}-${name}`;
}

/** One endpoint as the runner sees it: sends a run of entries as POSTs of up to `batch_size` entries each. */
export class WebhookEndpoint implements Target {
  readonly type = "webhook" as const;
  readonly id: string;
  #client: Deno.HttpClient | undefined;
  #lastSend = 0;
  /** Why this endpoint cannot send at all (its client certificate cannot be loaded…), if so. */
  readonly broken: string = "";

  /** `caCerts`: trusted besides the system's (the certificate directory's). */
  constructor(
    readonly config: WebhookTargetConfig,
    private readonly deploymentId: string,
    caCerts: string[] = [],
  ) {
    this.id = config.name;
    try {
      const options: Deno.CreateHttpClientOptions = {};
      if (config.clientCert && config.clientKey) {
        Object.assign(options, {
          cert: Deno.readTextFileSync(config.clientCert),
          key: Deno.readTextFileSync(config.clientKey),
        });
      }
      if (config.proxy) options.proxy = { url: config.proxy };
      this.#client = httpClientTrusting(caCerts, options);
    } catch (error) {
      // Never sent without the configured certificate or proxy: every send fails and says why.
      this.broken = `cannot start: ${errorMessage(error)}`;
    }
  }

  /** With batching, a partial batch waits for more entries until a second has passed since the last send. */
  get lingerMs(): number {
    return this.config.batchSize > 1 ? Math.max(0, PARTIAL_BATCH_WAIT_MS - (Date.now() - this.#lastSend)) : 0;
  }

  async send(batch: Delivery[]): Promise<void> {
    if (this.broken) throw new DeliveryError(this.broken, 0);
    const size = this.config.batchSize;
    for (let at = 0; at < batch.length; at += size) {
      const part = batch.slice(at, at + size);
      const problem = await this.#post(part.map((d) => `${d.line}\n`).join(""), part.length);
      if (problem) throw new DeliveryError(problem, at);
    }
  }

  /** Sends one body; returns what went wrong, or null. */
  async #post(body: string, count: number): Promise<string | null> {
    this.#lastSend = Date.now();
    const headers: Record<string, string> = {
      "user-agent": USER_AGENT,
      "x-minio-version": "deck-embedded",
      "x-minio-deployment-id": this.deploymentId,
      "x-minio-webhook-payload-count": String(count),
    };
    // MinIO sends a JSON content type with single entries only; an NDJSON batch goes without one.
    if (this.config.batchSize <= 1) headers["content-type"] = "application/json";
    if (this.config.authToken) headers.authorization = this.config.authToken;
    try {
      const res = await fetch(this.config.endpoint, {
        method: "POST",
        headers,
        // Bytes, not text: fetch would add a text/plain content type to a string body.
        body: new TextEncoder().encode(body),
        signal: AbortSignal.timeout(this.config.httpTimeoutMs),
        ...(this.#client ? { client: this.#client } : {}),
      } as RequestInit);
      await res.body?.cancel();
      return res.ok
        ? null
        : `offline: ${endpointName(this.config.endpoint)} answered ${res.status} ${res.statusText}`;
    } catch (error) {
      return `offline: POST ${endpointName(this.config.endpoint)}: ${errorMessage(error)}`;
    }
  }

  isActive(): Promise<boolean> {
    const url = new URL(this.config.endpoint);
    return canConnect(
      url.hostname.replace(/^\[|\]$/g, ""),
      Number(url.port) || (url.protocol === "https:" ? 443 : 80),
    );
  }

  close(): Promise<void> {
    this.#client?.close();
    this.#client = undefined;
    return Promise.resolve();
  }
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The endpoint without its query (where a token may travel). */
const endpointName = (endpoint: string) => endpoint.replace(/\?.*$/, "");

type Log = (level: "ERROR" | "WARNING" | "INFO", message: string, about: Kind, context?: LogContext) => void;

/**
 * A running target: its endpoint and its runner. It takes entries at once; while its runner starts (its
 * disk queue opens, the target it replaces hands over what it still holds) they wait in order in memory.
 */
export class WebhookTarget {
  #runner: TargetRunner | null = null;
  #pending: Delivery[] = [];
  #stopped = false;
  readonly ready: Promise<void>;

  constructor(
    readonly config: WebhookTargetConfig,
    sender: Sender,
    log: Log,
    previous?: WebhookTarget,
  ) {
    this.ready = this.#start(sender, log, previous);
  }

  async #start(sender: Sender, log: Log, previous?: WebhookTarget): Promise<void> {
    const config = this.config;
    const label = `${config.kind} target "${config.name}"`;
    // Entries the replaced target still held in memory go first; a disk queue it shares is closed before reuse.
    const left = previous ? await previous.stop().catch(() => [] as Delivery[]) : [];
    const endpoint = new WebhookEndpoint(config, sender.deploymentId, sender.caCerts);
    if (endpoint.broken) log("ERROR", `${label}: ${endpoint.broken}`, config.kind);
    let store: QueueStore | undefined;
    try {
      store = config.queueDir ? await QueueStore.open(queueDirOf(config), config.queueSize) : undefined;
    } catch (error) {
      // Still running from memory (and counting what it drops), so the problem is seen in the log, not hidden.
      log(
        "ERROR",
        `${label}: queue_dir cannot be used (${errorMessage(error)}); entries wait in memory only`,
        config.kind,
      );
    }
    this.#runner = new TargetRunner(endpoint, {
      store,
      memoryLimit: config.queueSize,
      log: (level, message, context) => log(level, `${label}: ${message}`, config.kind, context),
      batch: Math.max(config.batchSize, 100),
      retry: { max: config.maxRetry, intervalMs: config.retryIntervalMs, unit: config.batchSize },
      noun: "entries",
    });
    const waiting = [...left, ...this.#pending];
    this.#pending = [];
    if (waiting.length) this.#runner.adopt(waiting);
  }

  /** Entries waiting (in memory or on disk). */
  get queued(): number {
    return this.#pending.length + (this.#runner?.stats.queued ?? 0);
  }

  /** Delivery counters (tests and health). */
  get stats() {
    return this.#runner?.stats;
  }

  push(line: string): void {
    if (this.#stopped) return;
    if (this.#runner) return this.#runner.enqueue(lazyDelivery(line));
    if (this.#pending.length < this.config.queueSize) this.#pending.push(lazyDelivery(line));
  }

  /** Stops; resolves with the entries it held only in memory (none are lost with a disk queue). */
  async stop(): Promise<Delivery[]> {
    this.#stopped = true;
    await this.ready.catch(() => {});
    return this.#runner ? await this.#runner.stop() : [];
  }
}

/**
 * Keeps the audit and logger targets in step with the configuration and feeds them from the streams. The
 * sinks exist only while targets do, so an unconfigured server builds no audit entries.
 */
export class WebhookLoggers {
  readonly #targets = new Map<string, WebhookTarget>();
  #stopAudit: (() => void) | null = null;
  #stopLogger: (() => void) | null = null;
  readonly #stopConfig: () => void;
  /** Log entries about logger targets themselves, which must not be sent to those targets (a loop). */
  readonly #own = new WeakSet<LogEntry>();
  readonly #log: Log;
  /** Stops of removed targets still running. */
  readonly #stopping = new Set<Promise<unknown>>();

  constructor(
    config: ServerConfig,
    private readonly streams: StorageStreams,
    private readonly options: Sender,
  ) {
    this.#log = (level, message, about, context) => {
      const entry = logEntry(options.deploymentId, level, message, context);
      if (about === "logger_webhook") this.#own.add(entry);
      streams.log.publish(entry);
    };
    this.#apply(config.tree);
    this.#stopConfig = config.onChange((tree) => this.#apply(tree));
  }

  /** Targets currently running, by `kind:name` (tests). */
  get targets(): ReadonlyMap<string, WebhookTarget> {
    return this.#targets;
  }

  /** Sends an internal event's audit entry (heal removing a dangling object…) to every audit target. */
  auditInternal(event: InternalAuditEvent): void {
    const targets = [...this.#targets.values()].filter((t) => t.config.kind === "audit_webhook");
    if (targets.length === 0) return;
    const line = JSON.stringify(internalAuditEntry(event, this.options.deploymentId));
    for (const target of targets) target.push(line);
  }

  async close(): Promise<void> {
    this.#stopConfig();
    this.#stopAudit?.();
    this.#stopLogger?.();
    this.#stopAudit = this.#stopLogger = null;
    for (const [id, target] of [...this.#targets]) {
      this.#targets.delete(id);
      const left = await target.stop();
      if (left.length) {
        this.#log(
          "ERROR",
          `${target.config.kind} target "${target.config.name}": ${left.length} entries not delivered at shutdown`,
          target.config.kind,
        );
      }
    }
    await Promise.all(this.#stopping);
  }

  /** Synchronous, so the request after a set-config-kv already reaches a new target. */
  #apply(tree: ConfigTree): void {
    const wanted = [...targetsOf(tree, "audit_webhook"), ...targetsOf(tree, "logger_webhook")];
    const keep = new Set<string>();
    for (const config of wanted) {
      const id = `${config.kind}:${config.name}`;
      keep.add(id);
      const current = this.#targets.get(id);
      if (current && JSON.stringify(current.config) === JSON.stringify(config)) continue;
      this.#targets.set(id, new WebhookTarget(config, this.options, this.#log, current));
    }
    for (const [id, target] of [...this.#targets]) {
      if (keep.has(id)) continue;
      this.#targets.delete(id);
      const stopped = target.stop().then((left) => {
        if (left.length) {
          this.#log(
            "ERROR",
            `${target.config.kind} target "${target.config.name}": ${left.length} entries dropped: the target was removed`,
            target.config.kind,
          );
        }
      }).finally(() => this.#stopping.delete(stopped));
      this.#stopping.add(stopped);
    }
    const audit = [...this.#targets.values()].filter((t) => t.config.kind === "audit_webhook");
    const logger = [...this.#targets.values()].filter((t) => t.config.kind === "logger_webhook");
    this.#stopAudit?.();
    this.#stopLogger?.();
    this.#stopAudit = audit.length
      ? this.streams.requests.sink((record) => {
        const line = JSON.stringify(auditEntryOf(record, this.options.deploymentId));
        for (const target of audit) target.push(line);
      })
      : null;
    this.#stopLogger = logger.length
      ? this.streams.log.sink((entry) => {
        if (this.#own.has(entry)) return;
        const line = JSON.stringify(entry);
        for (const target of logger) target.push(line);
      })
      : null;
  }
}
