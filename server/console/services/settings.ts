/**
 * Server configuration (api-index §7, spec 2 Settings): the subsystems' key-values with secrets masked,
 * saving them after the same validation the browser runs (a half-valid form is refused whole), the
 * notification endpoints with their status, and restart. Tiers are in settings_tiers.ts.
 */
import type {
  ConfigDescriptor,
  ConfigInfo,
  NotificationEndpoint,
  SetConfigInput,
} from "../../lib/contract/settings.ts";
import { validateFields } from "../../lib/contract/settings_fields.ts";
import { fieldsOf } from "../../lib/contract/settings_forms.ts";
import { ApiError } from "../http/errors.ts";
import {
  formatConfigLine,
  getConfigKV,
  helpConfigKV,
  serviceRestart,
  setConfigKV,
} from "../../lib/s3/admin/config_kv.ts";
import { serverInfo } from "../../lib/s3/admin/info.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { maskValue, needsStored, restoreValue } from "./config_secrets.ts";
import { type MessageKey, t } from "../../../islands/lib/i18n/t.ts";

export { listTierViews } from "./settings_tiers.ts";

const SUBSYSTEM = /^[a-z][a-z0-9_]*$/;

function checkName(name: string): void {
  if (!SUBSYSTEM.test(name)) throw ApiError.badRequest(t("settings.validation.invalidName"), name);
}

/** GET /configs: the subsystems the server knows. */
export async function listConfigs(
  client: S3Client,
  offset = 0,
  limit = 1000,
): Promise<{ configurations: ConfigDescriptor[]; total: number }> {
  const help = await helpConfigKV(client, "");
  const all = help.keysHelp.map((k) => ({ key: k.key, description: k.description }));
  return { configurations: all.slice(offset, offset + limit), total: all.length };
}

/** A subsystem target's stored values, secrets in clear: for the console server's own use, never sent on. */
export async function storedValues(
  client: S3Client,
  name: string,
  target?: string,
): Promise<Record<string, string>> {
  const entries = await getConfigKV(client, target ? `${name}:${target}` : name);
  const entry = entries.find((e) => (e.target ?? "_") === (target || "_")) ??
    (target ? undefined : entries[0]);
  return Object.fromEntries((entry?.kv ?? []).map(({ key, value }) => [key, value]));
}

/** A subsystem's default target, secrets masked. */
export async function getConfig(client: S3Client, name: string): Promise<ConfigInfo> {
  checkName(name);
  const values = await storedValues(client, name);
  return {
    name,
    key_values: Object.entries(values).map(([key, value]) => ({ key, value: maskValue(key, value) })),
  };
}

/**
 * Writes the key-values (empty values dropped, CSV lists normalised, spec 2 §5). Subsystems the console has a
 * form for are checked field by field, over the stored values merged with the sent ones (as the storage
 * merges them), and refused whole on any problem (each named in the request's language); a masked secret keeps
 * the stored one. `restart` says whether a restart applies them.
 */
export async function setConfig(
  client: S3Client,
  name: string,
  input: SetConfigInput,
): Promise<{ restart: boolean }> {
  checkName(name);
  const target = input.arn_resource_id || undefined;
  const sent = input.key_values.filter((p) => p.value !== "");
  const fields = fieldsOf(name);
  let keyValues = sent;
  let stored: Record<string, string> = {};
  if (fields) {
    stored = await storedValues(client, name, target);
    const merged = { ...stored, ...Object.fromEntries(sent.map((p) => [p.key, p.value])) };
    const { keyValues: valid, errors: problems } = validateFields(fields, merged);
    // The checks name their problems by message key (the contract holds no language).
    const errors: Record<string, string> = Object.fromEntries(
      Object.entries(problems).map(([key, problem]) => [key, t(problem as MessageKey)]),
    );
    for (const { key } of sent) {
      if (!fields.some((f) => f.name === key) && key !== "enable") {
        errors[key] = t("settings.validation.notASetting", { key, name });
      }
    }
    if (Object.keys(errors).length > 0) {
      throw new ApiError(400, t("settings.validation.invalid"), {
        detail: Object.entries(errors).map(([k, m]) => `${k}: ${m}`).join("; "),
        fields: errors,
      });
    }
    keyValues = [...valid, ...(merged.enable ? [{ key: "enable", value: merged.enable }] : [])];
  } else if (needsStored(keyValues)) {
    stored = await storedValues(client, name, target);
  }
  const restored = keyValues.flatMap(({ key, value }) => {
    const kept = restoreValue(key, value, stored[key]);
    return kept === null ? [] : [{ key, value: kept }];
  });
  if (restored.length === 0) {
    throw ApiError.badRequest(t("settings.validation.nothingToSave"), t("settings.validation.allEmpty"));
  }
  return await setConfigKV(client, formatConfigLine(name, target, restored));
}

/** The configured targets and their status (ServerInfo services.notifications, flattened). */
export async function notificationEndpoints(client: S3Client): Promise<NotificationEndpoint[]> {
  const info = await serverInfo(client);
  const out: NotificationEndpoint[] = [];
  for (const byType of info.services?.notifications ?? []) {
    for (const [service, targets] of Object.entries(byType)) {
      for (const target of targets) {
        for (const [account_id, { status }] of Object.entries(target)) {
          out.push({ service, account_id, status });
        }
      }
    }
  }
  return out;
}

export async function restartService(client: S3Client): Promise<void> {
  await serviceRestart(client);
}
