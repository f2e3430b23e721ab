/**
 * Settings › Identity diagnostics for OpenID Connect: the provider the storage verifies tokens against
 * (identity_openid) and the one the console sends browsers to (CONSOLE_IDP_*), checked from this console
 * server: the discovery document answers, its issuer is the provider's own address, its key set answers with
 * keys, a client id is set, and a redirect (callback) URL is configured. Kept apart from the directory's
 * checks so more OpenID steps can be added here alone. Step names and messages are in the request's language.
 */
import type { DiagnosticsSection, DiagnosticStep } from "../../lib/contract/identity.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import type { AppConfig } from "../config/config.ts";
import { storedValues } from "./settings.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

const WELL_KNOWN = "/.well-known/openid-configuration";
const TIMEOUT_MS = 10_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The discovery URL from a configured address, which may name the document or only the issuer. */
export function discoveryUrl(configured: string): string {
  return configured.includes(WELL_KNOWN) ? configured : `${configured.replace(/\/+$/, "")}${WELL_KNOWN}`;
}

async function getJson(fetcher: typeof fetch, url: string): Promise<Record<string, unknown>> {
  const res = await fetcher(url, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { accept: "application/json" },
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(t("settings.identity.msg.httpStatus", { url, status: String(res.status) }));
  }
  const body = await res.json().catch(() => null);
  if (!body || typeof body !== "object") throw new Error(t("settings.identity.msg.notJson", { url }));
  return body as Record<string, unknown>;
}

export async function openIdDiagnostics(
  client: S3Client,
  config: Pick<AppConfig, "idp">,
  fetcher: typeof fetch,
): Promise<DiagnosticsSection> {
  const stored = await storedValues(client, "identity_openid").catch(() => ({} as Record<string, string>));
  const configUrl = stored.config_url || config.idp?.url || "";
  if (!configUrl) return { configured: false, steps: [] };
  const steps: DiagnosticStep[] = [];
  const record = (name: string, passed: boolean, message: string) => {
    steps.push({ name, passed, message });
    return passed;
  };
  const url = discoveryUrl(configUrl);
  let discovery: Record<string, unknown> | null = null;
  try {
    discovery = await getJson(fetcher, url);
    record(t("settings.identity.step.discovery"), true, t("settings.identity.msg.answered", { url }));
  } catch (error) {
    record(t("settings.identity.step.discovery"), false, `${url}: ${messageOf(error)}`);
  }
  if (discovery) {
    const expected = url.slice(0, url.indexOf(WELL_KNOWN));
    const issuer = String(discovery.issuer ?? "");
    record(
      t("settings.identity.step.issuer"),
      issuer.replace(/\/+$/, "") === expected.replace(/\/+$/, ""),
      issuer === ""
        ? t("settings.identity.msg.noIssuer")
        : t("settings.identity.msg.issuer", { issuer, expected }),
    );
    const jwksUri = String(discovery.jwks_uri ?? "");
    if (!jwksUri) {
      record(t("settings.identity.step.keySet"), false, t("settings.identity.msg.noJwksUri"));
    } else {
      try {
        const jwks = await getJson(fetcher, jwksUri);
        const keys = Array.isArray(jwks.keys) ? jwks.keys.length : 0;
        record(
          t("settings.identity.step.keySet"),
          keys > 0,
          keys > 0
            ? t("settings.identity.msg.keys", { url: jwksUri, count: keys })
            : t("settings.identity.msg.noKeys", { url: jwksUri }),
        );
      } catch (error) {
        record(t("settings.identity.step.keySet"), false, messageOf(error));
      }
    }
  }
  const clientId = stored.client_id || config.idp?.clientId || "";
  record(
    t("settings.identity.step.clientId"),
    clientId !== "",
    clientId ? t("settings.identity.msg.clientId", { id: clientId }) : t("settings.identity.msg.noClientId"),
  );
  const callback = config.idp?.callback || stored.redirect_uri || "";
  record(
    t("settings.identity.step.redirect"),
    callback !== "",
    callback ? t("settings.identity.msg.redirect", { url: callback }) : t("settings.identity.msg.noRedirect"),
  );
  return { configured: true, steps };
}
