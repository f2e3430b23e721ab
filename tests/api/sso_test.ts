/**
 * The console's single sign-on over HTTP against a real OpenID provider (oidc-provider): /login/sso sends
 * state, nonce and a PKCE challenge and keeps them in a Lax cookie; the callback signs in with the policy
 * the token's claim names; every refusal comes back to /login saying which step failed (issue 27).
 */
import assert from "node:assert/strict";
import http from "node:http";
import { configureStorage, type SsoStack, startSsoStack } from "../oidc/deck_sso.ts";

/** A browser's cookie jar for one origin, enough for the console's two cookies. */
class Browser {
  jar = new Map<string, string>();
  constructor(readonly base: string) {}
  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(new URL(path, this.base), {
      redirect: "manual",
      headers: { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "), ...headers },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      const value = pair.slice(at + 1);
      if (value) this.jar.set(pair.slice(0, at), value);
      else this.jar.delete(pair.slice(0, at));
    }
    return res;
  }
  /** Starts SSO and returns the provider's authorisation URL. */
  async start(): Promise<URL> {
    const res = await this.get("/login/sso");
    assert.equal(res.status, 302);
    return new URL(res.headers.get("location")!);
  }
  /** Follows a refusal to the login page and returns the reason it shows. */
  async reason(res: Response): Promise<string> {
    assert.equal(res.status, 302, await res.clone().text());
    const location = res.headers.get("location")!;
    assert.match(location, /^\/login\?sso_error=/);
    await res.body?.cancel();
    const page = await (await this.get(location)).text();
    const text = /data-testid="login-error"[^>]*><span>([^<]*)</.exec(page)?.[1];
    assert.ok(text, `the login page shows a reason: ${page.slice(0, 300)}`);
    return text.replaceAll("&#x27;", "'").replaceAll("&#39;", "'");
  }
}

async function signInThroughProvider(sso: SsoStack, login: string) {
  const browser = new Browser(sso.stack.consoleUrl);
  const back = await sso.provider.signInAs((await browser.start()).href, login);
  return { browser, callback: await browser.get(back.pathname + back.search) };
}

Deno.test("SSO against oidc-provider: state, nonce, PKCE, the claim's policy, and refusals that say why", async (t) => {
  const sso = await startSsoStack({ configureStorage: false });
  try {
    await t.step("the strategy points at the console's own start page", async () => {
      const res = await fetch(`${sso.stack.consoleUrl}/api/v1/login`);
      assert.deepEqual(await res.json(), { loginStrategy: "redirect", redirect: "/login/sso" });
      const page = await (await fetch(`${sso.stack.consoleUrl}/login`)).text();
      assert.match(page, /Welcome/);
      assert.match(page, /Login with SSO/);
      assert.match(page, /href="\/login\?form=1"/, "the access-key form stays reachable");
      assert.match(await (await fetch(`${sso.stack.consoleUrl}/login?form=1`)).text(), /LoginForm/);
    });

    await t.step("the authorisation request carries state, nonce and an S256 challenge", async () => {
      const browser = new Browser(sso.stack.consoleUrl);
      const res = await browser.get("/login/sso");
      const url = new URL(res.headers.get("location")!);
      assert.equal(url.origin, sso.provider.issuer);
      assert.equal(url.searchParams.get("redirect_uri"), sso.callback);
      assert.equal(url.searchParams.get("code_challenge_method"), "S256");
      for (const name of ["state", "nonce", "code_challenge"]) assert.ok(url.searchParams.get(name), name);
      const cookie = res.headers.getSetCookie().find((line) => line.startsWith("deck_sso="))!;
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Lax/i);
    });

    await t.step(
      "the storage refuses tokens until identity_openid is set: its message is shown",
      async () => {
        const { browser, callback } = await signInThroughProvider(sso, "reader");
        assert.match(
          await browser.reason(callback),
          /^Signed in at the identity provider, but the storage server refused its token: .*not configured/,
        );
      },
    );

    await configureStorage(sso.stack, sso.provider);

    await t.step("a readonly user signs in and gets the pages readonly allows", async () => {
      const { browser, callback } = await signInThroughProvider(sso, "reader");
      assert.equal(callback.status, 200);
      assert.match(await callback.text(), /http-equiv="refresh" content="0;url=\/"/);
      assert.ok(browser.jar.has("token"), "a session cookie");
      assert.ok(!browser.jar.has("deck_sso"), "the pending sign-in is spent");
      const session = await (await browser.get("/api/v1/session")).json();
      assert.ok(session.pages.includes("/object-browser"), session.pages.join(" "));
      assert.ok(!session.pages.includes("/users"), "no IAM pages for readonly");
      assert.ok(!session.pages.includes("/buckets"), "no bucket administration for readonly");

      const admin = await signInThroughProvider(sso, "admin");
      const adminSession = await (await admin.browser.get("/api/v1/session")).json();
      assert.ok(adminSession.pages.includes("/users"), "consoleAdmin's claim gives the IAM pages");
      assert.ok(!session.pages.includes("/account/change-password"), "no password to change");
    });

    await t.step("refusals name the failing step", async () => {
      const noClaim = await signInThroughProvider(sso, "no-claim");
      assert.match(await noClaim.browser.reason(noClaim.callback), /its token has no 'policy' claim/);

      const stranger = await signInThroughProvider(sso, "stranger");
      assert.match(
        await stranger.browser.reason(stranger.callback),
        /names no policy that exists on the storage server \(no-such-policy\)/,
      );

      const browser = new Browser(sso.stack.consoleUrl);
      const back = await sso.provider.signInAs((await browser.start()).href, "reader");
      const stranger2 = new Browser(sso.stack.consoleUrl);
      assert.match(
        await stranger2.reason(await stranger2.get(back.pathname + back.search)),
        /came back without the cookie this browser was given/,
        "a callback in another browser (a planted code)",
      );
      await stranger2.start();
      assert.match(
        await stranger2.reason(await stranger2.get(back.pathname + back.search)),
        /state mismatch/,
        "a callback for another sign-in than this browser's",
      );

      const first = await browser.get(back.pathname + back.search);
      assert.equal(first.status, 200, "the right browser signs in");
      await first.body?.cancel();
      // The same code and pending sign-in once more (a replay): the provider refuses the second exchange.
      const again = await sso.provider.signInAs((await browser.start()).href, "reader");
      const pending = browser.jar.get("deck_sso")!;
      const used = await browser.get(again.pathname + again.search);
      assert.equal(used.status, 200);
      await used.body?.cancel();
      const replay = new Browser(sso.stack.consoleUrl);
      replay.jar.set("deck_sso", pending);
      assert.match(
        await replay.reason(await replay.get(again.pathname + again.search)),
        /refused to exchange the sign-in code for a token \(invalid_grant/,
        "a code redeemed twice",
      );
    });

    await t.step("the provider's error is shown as 'IDP Error:' with both texts", async () => {
      const res = await fetch(
        `${sso.stack.consoleUrl}/oauth_callback?error=access_denied&error_description=End-User%20aborted%20interaction`,
      );
      assert.equal(res.status, 400);
      const page = await res.text();
      assert.match(page, /IDP Error:/);
      assert.match(page, /access_denied/);
      assert.match(page, /End-User aborted interaction/);
    });

    await t.step(
      "a console opened at another address than CONSOLE_IDP_CALLBACK's says so before leaving",
      async () => {
        const port = new URL(sso.stack.consoleUrl).port;
        // fetch() sets Host itself: node:http sends the name a browser would, here "localhost".
        const location = await new Promise<string>((resolve, reject) => {
          http.get(`${sso.stack.consoleUrl}/login/sso`, { headers: { host: `localhost:${port}` } }, (res) => {
            res.resume();
            resolve(res.headers.location ?? "");
          }).on("error", reject);
        });
        const browser = new Browser(sso.stack.consoleUrl);
        const reason = await browser.reason(new Response(null, { status: 302, headers: { location } }));
        assert.match(reason, new RegExp(`CONSOLE_IDP_CALLBACK is ${sso.callback}, but this console`));
        assert.match(
          reason,
          new RegExp(`set CONSOLE_IDP_CALLBACK to http://localhost:${port}/oauth_callback`),
        );
      },
    );

    await t.step("a reason not sealed by this console is not shown", async () => {
      const page = await (await fetch(`${sso.stack.consoleUrl}/login?sso_error=made-up-text`)).text();
      assert.doesNotMatch(page, /login-error/);
    });
  } finally {
    await sso.close();
  }
});

Deno.test("SSO auto-redirect: /login leaves for the provider; the form stays at /login?form=1", async () => {
  const sso = await startSsoStack({ env: { CONSOLE_IDP_AUTO_REDIRECT: "on" }, configureStorage: false });
  try {
    const res = await fetch(`${sso.stack.consoleUrl}/login`, { redirect: "manual" });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/login/sso");
    await res.body?.cancel();
    const form = await fetch(`${sso.stack.consoleUrl}/login?form=1`);
    assert.equal(form.status, 200);
    assert.match(await form.text(), /LoginForm/);
  } finally {
    await sso.close();
  }
});

Deno.test("SSO: a CONSOLE_IDP_CALLBACK at another path than /oauth_callback is named before leaving", async () => {
  const sso = await startSsoStack({ callbackPath: "/callback", configureStorage: false });
  try {
    const browser = new Browser(sso.stack.consoleUrl);
    const reason = await browser.reason(await browser.get("/login/sso"));
    assert.match(reason, new RegExp(`CONSOLE_IDP_CALLBACK is ${sso.callback}, but`));
    assert.match(reason, new RegExp(`set CONSOLE_IDP_CALLBACK to ${sso.stack.consoleUrl}/oauth_callback`));
  } finally {
    await sso.close();
  }
});
