/**
 * What SSO tests share: a console whose CONSOLE_IDP_* point at a real oidc-provider (tests/oidc/provider.ts)
 * with Deck registered as a client, and the embedded storage's identity_openid pointing at the same
 * provider (set through Settings, then the restart MinIO needs). The console's port is chosen first, because
 * the provider must know Deck's callback URL before either starts.
 */
import assert from "node:assert/strict";
import { signInAsRoot, startStack, type TestStack } from "../helpers.ts";
import { freePort } from "../storage_process.ts";
import { type OidcProvider, startOidcProvider } from "./provider.ts";

/** The provider's accounts: a readonly user, a consoleAdmin, one without a policy claim, one naming none. */
export const SSO_ACCOUNTS = {
  reader: { policy: "readonly" },
  admin: { policy: "consoleAdmin" },
  "no-claim": {},
  stranger: { policy: "no-such-policy" },
};

export interface SsoStack {
  stack: TestStack;
  provider: OidcProvider;
  callback: string;
  close(): Promise<void>;
}

export async function startSsoStack(
  options: { env?: Record<string, string>; configureStorage?: boolean; callbackPath?: string } = {},
): Promise<SsoStack> {
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}${options.callbackPath ?? "/oauth_callback"}`;
  const provider = await startOidcProvider({
    clients: [{ client_id: "deck", client_secret: "deck-client-secret", redirect_uris: [callback] }],
    accounts: SSO_ACCOUNTS,
  });
  let stack: TestStack;
  try {
    stack = await startStack({
      env: {
        CONSOLE_PORT: String(port),
        CONSOLE_IDP_URL: provider.discoveryUrl,
        CONSOLE_IDP_CLIENT_ID: "deck",
        CONSOLE_IDP_SECRET: "deck-client-secret",
        CONSOLE_IDP_CALLBACK: callback,
        CONSOLE_IDP_SCOPES: "openid",
        ...(options.env ?? {}),
      },
    });
  } catch (error) {
    await provider.close();
    throw error;
  }
  if (options.configureStorage !== false) await configureStorage(stack, provider);
  return {
    stack,
    provider,
    callback,
    close: async () => {
      await stack.close();
      await provider.close();
    },
  };
}

/** Points the embedded storage's identity_openid at the provider, as an administrator does in Settings. */
export async function configureStorage(stack: TestStack, provider: OidcProvider): Promise<void> {
  const root = await signInAsRoot(stack);
  await root.json("PUT", "/api/v1/configs/identity_openid", {
    key_values: [
      { key: "config_url", value: provider.discoveryUrl },
      { key: "client_id", value: "deck" },
    ],
  }, 200);
  const res = await root.request("POST", "/api/v1/service/restart", {});
  assert.equal(res.status, 204, await res.text());
}
