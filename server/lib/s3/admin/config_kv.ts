/**
 * Server configuration key-values (minio-protocol §3.8): encrypted text in both directions, one line per
 * subsystem target: `subsys[:target] k=v k2="v with spaces"`.
 */
import type { S3Client } from "../client.ts";
import { adminDo, adminJson, adminSend, adminText } from "./request.ts";

export interface ConfigEntry {
  subSystem: string;
  target?: string;
  kv: { key: string; value: string; envOverride?: { name: string; value: string } }[];
}

/** Parses server config text (v3 algorithm: split on the first space, then key=value or key="value"). */
export function parseConfigText(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  let overrides: { name: string; value: string }[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith("#")) {
      const env = /^#\s*(MINIO_[A-Z0-9_]+)=(.*)$/.exec(line);
      if (env) overrides.push({ name: env[1], value: env[2] });
      continue;
    }
    const space = line.indexOf(" ");
    const head = space === -1 ? line : line.slice(0, space);
    const [subSystem, target] = head.split(":", 2);
    const entry: ConfigEntry = { subSystem, target: target && target !== "_" ? target : undefined, kv: [] };
    let rest = space === -1 ? "" : line.slice(space + 1);
    while (rest.trim()) {
      rest = rest.trimStart();
      const eq = rest.indexOf("=");
      if (eq === -1) break;
      const key = rest.slice(0, eq);
      let value: string;
      if (rest[eq + 1] === '"') {
        const end = rest.indexOf('"', eq + 2);
        value = rest.slice(eq + 2, end === -1 ? undefined : end);
        rest = end === -1 ? "" : rest.slice(end + 1);
      } else {
        const end = rest.indexOf(" ", eq + 1);
        value = rest.slice(eq + 1, end === -1 ? undefined : end);
        rest = end === -1 ? "" : rest.slice(end + 1);
      }
      const envName = `MINIO_${subSystem.toUpperCase()}_${key.toUpperCase()}${
        entry.target ? `_${entry.target.toUpperCase()}` : ""
      }`;
      const envOverride = overrides.find((o) => o.name === envName);
      entry.kv.push({ key, value, ...(envOverride ? { envOverride } : {}) });
    }
    entries.push(entry);
    overrides = [];
  }
  return entries;
}

/** Formats one config line, quoting values that contain whitespace (values cannot contain `"`). */
export function formatConfigLine(
  subSystem: string,
  target: string | undefined,
  kv: { key: string; value: string }[],
): string {
  const head = target && target !== "_" ? `${subSystem}:${target}` : subSystem;
  const pairs = kv.map((
    { key, value },
  ) => (/\s/.test(value) || value === "" ? `${key}="${value}"` : `${key}=${value}`));
  return [head, ...pairs].join(" ");
}

/** Config of a subsystem (all targets) or of `subsys:target`. */
export async function getConfigKV(client: S3Client, key: string): Promise<ConfigEntry[]> {
  return parseConfigText(
    await adminText(client, { method: "GET", op: "get-config-kv", query: { key }, decrypt: true }),
  );
}

/** Applies config lines; returns whether the server needs a restart for them to take effect. */
export async function setConfigKV(client: S3Client, text: string): Promise<{ restart: boolean }> {
  const res = await adminSend(client, { method: "PUT", op: "set-config-kv", body: text, encrypt: true });
  await res.body?.cancel();
  return { restart: res.headers.get("x-minio-config-applied") !== "true" };
}

export async function delConfigKV(client: S3Client, text: string): Promise<{ restart: boolean }> {
  const res = await adminSend(client, { method: "DELETE", op: "del-config-kv", body: text, encrypt: true });
  await res.body?.cancel();
  return { restart: res.headers.get("x-minio-config-applied") !== "true" };
}

export interface ConfigHelp {
  subSys: string;
  description: string;
  multipleTargets: boolean;
  keysHelp: { key: string; description: string; optional: boolean; type: string; multipleTargets: boolean }[];
}

export function helpConfigKV(client: S3Client, subSys: string, key = ""): Promise<ConfigHelp> {
  return adminJson(client, { method: "GET", op: "help-config-kv", query: { subSys, key } });
}

/** Asks the server to restart (the embedded server reloads in-process). */
export async function serviceRestart(client: S3Client): Promise<void> {
  await adminDo(client, { method: "POST", op: "service", query: { action: "restart" } });
}
