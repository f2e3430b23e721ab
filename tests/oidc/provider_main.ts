/**
 * The test suite's OpenID provider: the npm package `oidc-provider` (an OpenID-certified implementation) in a
 * process of its own, so its Koa server and timers never meet a test's resource sanitizer. Nothing of the
 * provider is ours but this configuration: the clients, the accounts and their claims, the signing keys,
 * and the token lifetime, all read from the JSON given as the first argument. Its real login and consent
 * pages are its development interactions; accounts are looked up by login name (see tests/oidc/provider.ts
 * for why the password is not checked). Prints "listening <issuer>" once it serves.
 */
import Provider from "oidc-provider";

interface FixtureConfig {
  port: number;
  clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  /** Login name → extra claims of that account (the policy claim, or none). */
  accounts: Record<string, Record<string, unknown>>;
  /** Private signing keys (JWK with kid); the first signs, all are published. */
  keys: JsonWebKey[];
  idTokenSeconds: number;
}

const config: FixtureConfig = JSON.parse(Deno.args[0]);
const issuer = `http://127.0.0.1:${config.port}`;
const claimNames = [...new Set(Object.values(config.accounts).flatMap((claims) => Object.keys(claims)))];

const provider = new Provider(issuer, {
  clients: config.clients.map((client) => ({
    ...client,
    grant_types: ["authorization_code"],
    response_types: ["code"],
  })),
  jwks: { keys: config.keys as never },
  // The policy claims travel with the openid scope and go into the id_token itself, where MinIO reads them.
  claims: { openid: ["sub", ...claimNames] },
  conformIdTokenClaims: false,
  ttl: { IdToken: config.idTokenSeconds, AccessToken: config.idTokenSeconds },
  findAccount: (_ctx: unknown, id: string) => {
    const claims = config.accounts[id];
    if (!claims) return undefined;
    return { accountId: id, claims: () => ({ sub: id, ...claims }) };
  },
  features: { devInteractions: { enabled: true } },
  // Loopback is plain http in tests; the provider otherwise insists on secure cookies behind TLS.
  cookies: { keys: ["deck-test-cookie-key"] },
});
// The development interactions warn on stderr at start; the warning is expected here.
const server = provider.listen(config.port, "127.0.0.1", () => console.log(`listening ${issuer}`));
Deno.addSignalListener("SIGTERM", () => {
  server.close();
  Deno.exit(0);
});
