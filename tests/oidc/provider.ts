/**
 * Starts the real OpenID provider (tests/oidc/provider_main.ts, the npm package `oidc-provider`) on a free
 * loopback port, and walks its real login and consent pages over HTTP for API tests (browser tests click
 * them). It also signs tokens with the provider's own published key, for the refusals a provider never
 * issues on request (expired, for another audience); a token signed by a key the provider never published is
 * made with `foreignKey`.
 *
 * The provider's development interactions take any password: accounts are matched by login name only. The
 * console never sees the password either way, so no Deck behaviour depends on it.
 */
import { freePort, listeningUrl } from "../storage_process.ts";

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface OidcProviderOptions {
  clients: OidcClient[];
  accounts: Record<string, Record<string, unknown>>;
  idTokenSeconds?: number;
}

export interface SigningKey {
  privateKey: CryptoKey;
  jwk: JsonWebKey & { kid: string };
}

export interface OidcProvider {
  issuer: string;
  discoveryUrl: string;
  /** The key the provider signs with now. */
  key: SigningKey;
  /** A JWT with the provider's issuer and these claims (sub, aud, iat, exp default sensibly). */
  sign(claims: Record<string, unknown>, key?: SigningKey): Promise<string>;
  /** Restarts the provider on the same port signing with a new key (the old one stays published). */
  rotate(): Promise<SigningKey>;
  /**
   * Follows `authorizationUrl` through the provider's login and consent pages as `login` and returns the
   * URL the provider sends the browser back to (the callback with code and state, or with an error).
   */
  signInAs(authorizationUrl: string, login: string): Promise<URL>;
  /** A real id_token the provider issues to `login` for a client (the first one unless said; code flow). */
  idTokenFor(login: string, client?: OidcClient): Promise<string>;
  close(): Promise<void>;
}

/** A new RS256 signing key with a kid. */
export async function foreignKey(kid: string = crypto.randomUUID()): Promise<SigningKey> {
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  );
  const jwk = { ...(await crypto.subtle.exportKey("jwk", pair.privateKey)), kid, alg: "RS256", use: "sig" };
  return { privateKey: pair.privateKey, jwk };
}

const b64 = (data: Uint8Array | string) =>
  (typeof data === "string" ? new TextEncoder().encode(data) : data).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });

async function spawnProvider(config: unknown): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./provider_main.ts", import.meta.url).pathname, JSON.stringify(config)],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    await listeningUrl(child, "the OpenID provider");
  } catch (error) {
    try {
      child.kill();
    } catch { /* already ended */ }
    await child.status;
    throw error;
  }
  return child;
}

/** A small cookie-keeping client for the provider's pages (redirects followed by hand). */
async function walk(start: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers ?? {}), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  let url = start;
  const origin = new URL(start).origin;
  for (let hop = 0; hop < 20; hop++) {
    const res = await send(url);
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const next = new URL(res.headers.get("location")!, url);
      if (next.origin !== origin) return next;
      url = next.href;
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page at ${url}: ${page.slice(0, 500)}`);
    const body = new URLSearchParams({ prompt });
    if (prompt === "login") {
      body.set("login", login);
      body.set("password", "any");
    }
    const posted = await send(new URL(action, url).href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    await posted.body?.cancel();
    const next = new URL(posted.headers.get("location")!, url);
    if (next.origin !== origin) return next;
    url = next.href;
  }
  throw new Error("the provider kept redirecting");
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const keys: SigningKey[] = [await foreignKey("key-1")];
  const configOf = () => ({
    port,
    clients: options.clients,
    accounts: options.accounts,
    keys: keys.map((k) => k.jwk),
    idTokenSeconds: options.idTokenSeconds ?? 3600,
  });
  let child = await spawnProvider(configOf());
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already ended */ }
    await child.status;
  };
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    get key() {
      return keys[0];
    },
    async sign(claims, key = keys[0]) {
      const now = Math.floor(Date.now() / 1000);
      const head = `${b64(JSON.stringify({ alg: "RS256", kid: key.jwk.kid, typ: "JWT" }))}.${
        b64(JSON.stringify({
          iss: issuer,
          aud: options.clients[0].client_id,
          sub: "alice",
          iat: now,
          exp: now + 3600,
          ...claims,
        }))
      }`;
      const signature = new Uint8Array(
        await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key.privateKey, new TextEncoder().encode(head)),
      );
      return `${head}.${b64(signature)}`;
    },
    async rotate() {
      await stop();
      keys.unshift(await foreignKey(`key-${keys.length + 1}`));
      child = await spawnProvider(configOf());
      return keys[0];
    },
    signInAs: (authorizationUrl, login) => walk(authorizationUrl, login),
    async idTokenFor(login, client = options.clients[0]) {
      const discovery = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
      const verifier = b64(crypto.getRandomValues(new Uint8Array(32)));
      const challenge = b64(
        new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
      );
      const auth = new URL(discovery.authorization_endpoint);
      auth.search = new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[0],
        scope: "openid",
        state: "s",
        nonce: "n",
        code_challenge: challenge,
        code_challenge_method: "S256",
      }).toString();
      const back = await walk(auth.href, login);
      const code = back.searchParams.get("code");
      if (!code) throw new Error(`the provider refused: ${back.search}`);
      const res = await fetch(discovery.token_endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
        },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: client.redirect_uris[0],
          code_verifier: verifier,
        }),
      });
      const body = await res.json();
      if (typeof body.id_token !== "string") throw new Error(`no id_token: ${JSON.stringify(body)}`);
      return body.id_token;
    },
    close: stop,
  };
}
