/**
 * Server configuration (config KV, minio-protocol §3.8): parsed from the text format, validated against the
 * known subsystems, persisted durably, and "applied" at start and on service restart — notification targets
 * become ARNs only after a restart, as on MinIO.
 */
import { writeFileDurable } from "../fs/durable.ts";
import { checkSubsystemValues } from "./config_rules.ts";
import { arnType, subsystem } from "./subsystems.ts";
import { StoreError } from "../core/errors.ts";
import type { ConfigTree } from "../core/contracts.ts";

const bad = (message: string) => new StoreError("XMinioAdminConfigBadJSON", message, 400);

export interface ConfigLine {
  subsystem: string;
  target: string;
  values: Record<string, string>;
}

/**
 * Parses input text. Values are cut at the next *known* key of the subsystem followed by "=", so unquoted
 * values with spaces work as MinIO accepts them; surrounding quotes are stripped.
 */
export function parseConfigInput(text: string, options: { requireValues: boolean }): ConfigLine[] {
  const lines: ConfigLine[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const space = line.indexOf(" ");
    const head = space === -1 ? line : line.slice(0, space);
    const [name, target = "_"] = head.split(":", 2);
    const def = subsystem(name);
    if (!def) throw bad(`unknown sub-system ${name}`);
    if (target !== "_" && !def.multipleTargets) throw bad(`sub-system '${name}' only supports single target`);
    if (!/^[A-Za-z0-9_-]+$/.test(target)) throw bad(`invalid target name '${target}'`);
    const rest = space === -1 ? "" : line.slice(space + 1);
    const values: Record<string, string> = {};
    if (options.requireValues) {
      const positions: { key: string; at: number; valueAt: number }[] = [];
      for (const { key } of def.keys) {
        const re = new RegExp(`(^|\\s)${key}=`, "g");
        for (const m of rest.matchAll(re)) {
          positions.push({ key, at: m.index! + m[1].length, valueAt: m.index! + m[0].length });
        }
      }
      positions.sort((a, b) => a.at - b.at);
      const unknown = rest.replace(/"[^"]*"/g, "").match(/(^|\s)([A-Za-z_]+)=/g)?.map((m) =>
        m.trim().slice(0, -1)
      ).filter((key) => !def.keys.some((k) => k.key === key));
      if (unknown?.length) throw bad(`found invalid keys (${unknown.join(", ")}) for '${name}' sub-system`);
      positions.forEach((p, i) => {
        const end = i + 1 < positions.length ? positions[i + 1].at : rest.length;
        values[p.key] = rest.slice(p.valueAt, end).trim().replace(/^"(.*)"$/s, "$1").replace(
          /^'(.*)'$/s,
          "$1",
        );
      });
    } else {
      for (const key of rest.split(/\s+/).filter(Boolean)) values[key] = "";
    }
    lines.push({ subsystem: name, target, values });
  }
  if (lines.length === 0) throw bad("no configuration given");
  return lines;
}

/** Checks one target's final values: required keys present and typed values plausible. */
function validateTarget(name: string, values: Record<string, string>): void {
  const def = subsystem(name)!;
  if (values.enable === "off") return;
  for (const key of def.keys) {
    const value = values[key.key];
    if (!key.optional && !value) throw bad(`'${key.key}' is required for sub-system '${name}'`);
    if (!value) continue;
    if (key.type === "on|off" && value !== "on" && value !== "off") {
      throw bad(`'${key.key}' must be 'on' or 'off'`);
    }
    if (key.type === "number" && !/^\d+$/.test(value)) throw bad(`'${key.key}' must be a number`);
    if (key.type === "url" && !/^[a-z][a-z0-9+.-]*:\/\/./i.test(value)) {
      throw bad(`'${key.key}' must be a URL such as http://host:port`);
    }
  }
  checkSubsystemValues(name, values);
}

/** Formats the server's reply to get-config-kv: one line per target, quoted when needed, empty values omitted. */
export function formatConfig(tree: ConfigTree, only?: { subsystem: string; target?: string }): string {
  const lines: string[] = [];
  for (const [name, targets] of Object.entries(tree).sort()) {
    if (only && only.subsystem !== name) continue;
    for (const [target, values] of Object.entries(targets).sort()) {
      if (only?.target !== undefined && only.target !== target) continue;
      const pairs = Object.entries(values)
        .filter(([key, value]) => value !== "" && !(key === "enable" && value === "on"))
        .map(([key, value]) => (/\s/.test(value) ? `${key}="${value}"` : `${key}=${value}`));
      lines.push([target === "_" ? name : `${name}:${target}`, ...pairs].join(" "));
    }
  }
  return lines.join("\n") + (lines.length ? "\n" : "");
}

/** Subsystems whose changes apply at once, without a restart (their readers follow the stored config). */
const LIVE_SUBSYSTEMS = new Set(["audit_webhook", "logger_webhook"]);

export class ServerConfig {
  #tree: ConfigTree;
  #applied: ConfigTree;
  readonly #listeners = new Set<(tree: ConfigTree) => void>();

  private constructor(private readonly file: string, private readonly tmpDir: string, tree: ConfigTree) {
    this.#tree = tree;
    this.#applied = structuredClone(tree);
  }

  static async open(dataDir: string): Promise<ServerConfig> {
    const file = `${dataDir}/.deck/config.json`;
    const tree = await Deno.readTextFile(file).then((t) => JSON.parse(t) as ConfigTree, () => ({}));
    return new ServerConfig(file, `${dataDir}/.deck/tmp`, tree);
  }

  get tree(): ConfigTree {
    return this.#tree;
  }

  /** Applies set-config-kv text; returns whether a restart is needed for it to take effect. */
  async set(text: string): Promise<{ restart: boolean }> {
    const lines = parseConfigInput(text, { requireValues: true });
    const next = structuredClone(this.#tree);
    for (const line of lines) {
      const current = next[line.subsystem]?.[line.target] ?? {};
      const merged = { ...current, ...line.values };
      for (const [key, value] of Object.entries(merged)) if (value === "") delete merged[key];
      validateTarget(line.subsystem, merged);
      next[line.subsystem] = { ...(next[line.subsystem] ?? {}), [line.target]: merged };
    }
    await this.#save(next);
    // The audit/logger webhooks apply at once (their senders follow the stored config); everything else applies
    // at the next (in-process) restart, as MinIO reports for these.
    return { restart: lines.some((l) => !LIVE_SUBSYSTEMS.has(l.subsystem)) };
  }

  /** Applies del-config-kv text: a bare target line removes it, listed keys reset to defaults. */
  async delete(text: string): Promise<{ restart: boolean }> {
    const lines = parseConfigInput(text, { requireValues: false });
    const next = structuredClone(this.#tree);
    for (const line of lines) {
      const targets = next[line.subsystem];
      if (!targets?.[line.target]) {
        throw new StoreError(
          "XMinioAdminNoSuchConfigTarget",
          `No such target ${line.subsystem}:${line.target}`,
          400,
        );
      }
      const keys = Object.keys(line.values);
      if (keys.length === 0) delete targets[line.target];
      else for (const key of keys) delete targets[line.target][key];
    }
    await this.#save(next);
    return { restart: lines.some((l) => !LIVE_SUBSYSTEMS.has(l.subsystem)) };
  }

  async #save(tree: ConfigTree): Promise<void> {
    await writeFileDurable(this.tmpDir, this.file, JSON.stringify(tree));
    this.#tree = tree;
    for (const listener of this.#listeners) listener(tree);
  }

  /** Calls `listener` with the stored configuration after every change; returns its removal. */
  onChange(listener: (tree: ConfigTree) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** What a restart does: the stored configuration becomes the running one. */
  applyStored(): void {
    this.#applied = structuredClone(this.#tree);
  }

  /** The running configuration (what the last start or restart applied). */
  get applied(): ConfigTree {
    return this.#applied;
  }

  region(): string {
    return this.#applied.region?._?.name ?? "";
  }

  /** Origins the S3 API answers CORS for when a bucket has no CORS rules (`api cors_allow_origin`, default "*"). */
  corsAllowOrigins(): string[] {
    const value = this.#applied.api?._?.cors_allow_origin;
    return value ? value.split(",").map((o) => o.trim()).filter((o) => o !== "") : ["*"];
  }

  /** ARNs of the running notification targets (arn:minio:sqs:<region>:<id>:<type>). */
  notificationArns(): string[] {
    const arns: string[] = [];
    for (const [name, targets] of Object.entries(this.#applied)) {
      if (!name.startsWith("notify_")) continue;
      for (const [target, values] of Object.entries(targets)) {
        if (values.enable === "off") continue;
        arns.push(`arn:minio:sqs:${this.region()}:${target}:${arnType(name)}`);
      }
    }
    return arns.sort();
  }
}
