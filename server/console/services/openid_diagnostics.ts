/**
 * Settings › Identity diagnostics for OpenID Connect: the provider the storage verifies tokens against
 * (identity_openid) and the one the console sends browsers to (CONSOLE_IDP_*), checked from this console
 * server: the discovery document answers, its issuer is the provider's own address, its key set answers with
 * keys, a client id is set, and a redirect (callback) URL is configured. Kept apart from the directory's
 * checks so more OpenID steps can be added here alone.
 */
import type { DiagnosticsSection, DiagnosticStep } from "../../lib/contract/identity.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import type { AppConfig } from "../config/config.ts";
import { storedValues } from "./settings.ts";

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
    throw new Error(`${url} answered HTTP ${res.status}`);
  }
  const body = await res.json().catch(() => null);
  if (!body || typeof body !== "object") throw new Error(`${url} did not answer JSON`);
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
    record("Discovery document reachable", true, `${url} answered`);
  } catch (error) {
    record("Discovery document reachable", false, `${url}: ${messageOf(error)}`);
  }
  if (discovery) {
    const expected = url.slice(0, url.indexOf(WELL_KNOWN));
    const issuer = String(discovery.issuer ?? "");
    record(
      "Issuer matches",
      issuer.replace(/\/+$/, "") === expected.replace(/\/+$/, ""),
      issuer === "" ? "the discovery document names no issuer" : `issuer ${issuer}, configured ${expected}`,
    );
    const jwksUri = String(discovery.jwks_uri ?? "");
    if (!jwksUri) {
      record("Key set reachable", false, "the discovery document names no jwks_uri");
    } else {
      try {
        const jwks = await getJson(fetcher, jwksUri);
        const keys = Array.isArray(jwks.keys) ? jwks.keys.length : 0;
        record(
          "Key set reachable",
          keys > 0,
          keys > 0 ? `${jwksUri}: ${keys} key(s)` : `${jwksUri} holds no keys`,
        );
      } catch (error) {
        record("Key set reachable", false, messageOf(error));
      }
    }
  }
  const clientId = stored.client_id || config.idp?.clientId || "";
  record(
    "Client id set",
    clientId !== "",
    clientId ? `client id ${clientId}` : "set client_id (identity_openid) or CONSOLE_IDP_CLIENT_ID",
  );
  const callback = config.idp?.callback || stored.redirect_uri || "";
  record(
    "Redirect URL configured",
    callback !== "",
    callback
      ? `the provider must list ${callback} as a redirect URI of the client`
      : "set CONSOLE_IDP_CALLBACK (or identity_openid redirect_uri) to the console's /oauth_callback address",
  );
  return { configured: true, steps };
}
