/**
 * Audit and logger webhooks (minio-protocol-2 §2): every request's audit entry goes to each enabled
 * `audit_webhook` target and every log entry to each `logger_webhook` target, POSTed as one JSON entry per
 * request as MinIO does (auth_token sent verbatim as Authorization). Targets are read from the stored config
 * and follow it as it changes: a target added with set-config-kv receives the next request's entry, with no
 * restart.
 *
 * Bounded: each target has an in-memory queue of `queue_size` entries (default 10,000); while its endpoint is
 * down the oldest entries are dropped and counted, and the target retries every few seconds. A target going
 * offline or coming back is written to the server's log (which the console's Error Logs show). Nothing is
 * built or queued while no target is configured.
 */
import type { ConfigTree, ServerConfig } from "../admin/server_config.ts";
import type { StorageStreams } from "../streams/mod.ts";
import type { LogEntry } from "../streams/mod.ts";
import { type AuditEntry, auditEntryOf } from "./audit_entry.ts";

type Kind = "audit_webhook" | "logger_webhook";

export interface WebhookTargetConfig {
  kind: Kind;
  name: string;
  endpoint: string;
  authToken: string;
  clientCert: string;
  clientKey: string;
  queueSize: number;
}

const DEFAULT_QUEUE_SIZE = 10_000;
const MAX_QUEUE_SIZE = 100_000;
const SEND_TIMEOUT_MS = 5000;
const RETRY_INTERVAL_MS = 3000;
/** Senders per target once a backlog builds (MinIO adds workers when its queue is half full). */
const MAX_SENDERS = 4;
const USER_AGENT = "MinIO (linux; amd64) deck-embedded";

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
      queueSize: Math.min(MAX_QUEUE_SIZE, Number(values.queue_size) > 0 ? Number(values.queue_size) : DEFAULT_QUEUE_SIZE),
    }));
}

interface TargetDeps {
  fetch: typeof fetch;
  deploymentId: string;
  /** Writes a line about a target to the server's log. */
  log: (level: "ERROR" | "INFO", message: string, about: Kind) => void;
}

/** One endpoint: a bounded queue drained by one to four senders. */
export class WebhookTarget {
  #queue: string[] = [];
  #senders = 0;
  #online = true;
  #dropped = 0;
  readonly #stop = new AbortController();
  #client: Deno.HttpClient | undefined;

  constructor(readonly config: WebhookTargetConfig, private readonly deps: TargetDeps) {
    if (config.clientCert && config.clientKey) {
      try {
        this.#client = Deno.createHttpClient({ cert: Deno.readTextFileSync(config.clientCert), key: Deno.readTextFileSync(config.clientKey) });
      } catch (error) {
        deps.log("ERROR", `${this.#label}: cannot load the client certificate: ${error instanceof Error ? error.message : error}`, config.kind);
      }
    }
  }

  get #label(): string {
    return `${this.config.kind} target "${this.config.name}"`;
  }

  /** Entries waiting (for tests and health). */
  get queued(): number {
    return this.#queue.length;
  }

  push(entry: unknown): void {
    if (this.#stop.signal.aborted) return;
    if (this.#queue.length >= this.config.queueSize) {
      this.#queue.shift();
      if (this.#dropped++ === 0) this.deps.log("ERROR", `${this.#label}: queue full (${this.config.queueSize} entries); the oldest entries are being dropped`, this.config.kind);
    }
    this.#queue.push(`${JSON.stringify(entry)}\n`);
    const wanted = this.#queue.length > 64 ? MAX_SENDERS : 1;
    while (this.#senders < wanted) {
      this.#senders++;
      this.#send().finally(() => this.#senders--);
    }
  }

  close(): void {
    this.#stop.abort();
    this.#queue = [];
    this.#client?.close();
  }

  async #send(): Promise<void> {
    while (this.#queue.length > 0 && !this.#stop.signal.aborted) {
      const body = this.#queue.shift()!;
      const problem = await this.#post(body);
      if (!problem) {
        if (!this.#online) {
          this.#online = true;
          this.deps.log("INFO", `${this.#label} is online again${this.#dropped ? `; ${this.#dropped} entries were dropped while it was not` : ""}`, this.config.kind);
          this.#dropped = 0;
        }
        continue;
      }
      if (this.#online) {
        this.#online = false;
        this.deps.log("ERROR", `${this.#label} is offline: ${problem}`, this.config.kind);
      }
      if (this.#queue.length < this.config.queueSize) this.#queue.unshift(body);
      else this.#dropped++;
      await sleep(RETRY_INTERVAL_MS, this.#stop.signal);
    }
  }

  /** Sends one entry; returns what went wrong, or null. */
  async #post(body: string): Promise<string | null> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "x-minio-deployment-id": this.deps.deploymentId,
      "x-minio-webhook-payload-count": "1",
    };
    if (this.config.authToken) headers.authorization = this.config.authToken;
    try {
      const res = await this.deps.fetch(this.config.endpoint, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.any([AbortSignal.timeout(SEND_TIMEOUT_MS), this.#stop.signal]),
        ...(this.#client ? { client: this.#client } : {}),
      } as RequestInit);
      await res.body?.cancel();
      return res.ok ? null : `${this.config.endpoint} answered ${res.status} ${res.statusText}`;
    } catch (error) {
      return `POST ${this.config.endpoint.replace(/\?.*$/, "")}: ${error instanceof Error ? error.message : error}`;
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
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
  readonly #deps: TargetDeps;

  constructor(config: ServerConfig, private readonly streams: StorageStreams, options: { deploymentId: string; fetch?: typeof fetch }) {
    this.#deps = {
      fetch: options.fetch ?? globalThis.fetch,
      deploymentId: options.deploymentId,
      log: (level, message, about) => {
        const entry: LogEntry = {
          deploymentid: options.deploymentId,
          level,
          time: new Date().toISOString(),
          message,
          ...(level === "ERROR" ? { error: { message, source: ["server/storage/logging/webhook_targets.ts"] } } : {}),
        };
        if (about === "logger_webhook") this.#own.add(entry);
        streams.log.publish(entry);
      },
    };
    this.#apply(config.tree);
    this.#stopConfig = config.onChange((tree) => this.#apply(tree));
  }

  /** Targets currently running, by `kind:name` (tests). */
  get targets(): ReadonlyMap<string, WebhookTarget> {
    return this.#targets;
  }

  close(): void {
    this.#stopConfig();
    this.#stopAudit?.();
    this.#stopLogger?.();
    for (const target of this.#targets.values()) target.close();
    this.#targets.clear();
  }

  #apply(tree: ConfigTree): void {
    const wanted = [...targetsOf(tree, "audit_webhook"), ...targetsOf(tree, "logger_webhook")];
    const keep = new Set<string>();
    for (const config of wanted) {
      const id = `${config.kind}:${config.name}`;
      keep.add(id);
      const current = this.#targets.get(id);
      if (current && JSON.stringify(current.config) === JSON.stringify(config)) continue;
      current?.close();
      this.#targets.set(id, new WebhookTarget(config, this.#deps));
    }
    for (const [id, target] of this.#targets) {
      if (keep.has(id)) continue;
      target.close();
      this.#targets.delete(id);
    }
    const audit = [...this.#targets.values()].filter((t) => t.config.kind === "audit_webhook");
    const logger = [...this.#targets.values()].filter((t) => t.config.kind === "logger_webhook");
    this.#stopAudit?.();
    this.#stopLogger?.();
    this.#stopAudit = audit.length
      ? this.streams.requests.sink((record) => {
        const entry: AuditEntry = auditEntryOf(record, this.#deps.deploymentId);
        for (const target of audit) target.push(entry);
      })
      : null;
    this.#stopLogger = logger.length
      ? this.streams.log.sink((entry) => {
        if (this.#own.has(entry)) return;
        for (const target of logger) target.push(entry);
      })
      : null;
  }
}
