/**
 * One guard for operator sessions, pages and API alike. Two Decks on one host, one in each mode, sharing
 * CONSOLE_PBKDF_PASSPHRASE/SALT (as replicas are told to): browsers send cookies to every port of a host, so
 * a session one Deck sealed reaches the other, which opens it. A session of the other mode is no session
 * here: the API answers 401 with the error contract and drops the cookie, pages send the browser to sign in.
 */
import assert from "node:assert/strict";
import { type ConsoleClient, signInAsRoot, startStack } from "../helpers.ts";
import { signInOperator, startOperatorStack } from "../operator_helpers.ts";

const SHARED_KEY = { CONSOLE_PBKDF_PASSPHRASE: "one passphrase", CONSOLE_PBKDF_SALT: "one salt" };
const TENANT = "/namespaces/tenant-lite/tenants/storage-lite";

/** The request `client` would send, with its cookie, to another Deck on the same host. */
async function sendTo(baseUrl: string, client: ConsoleClient, path: string): Promise<Response> {
  return await fetch(baseUrl + path, {
    headers: { cookie: client.cookie, origin: baseUrl },
    redirect: "manual",
  });
}

async function assertRefusedApi(res: Response): Promise<void> {
  const body = await res.json();
  assert.equal(res.status, 401, JSON.stringify(body));
  assert.equal(body.code, 401);
  assert.equal(typeof body.message, "string");
  assert.equal(typeof body.detailedMessage, "string");
  assert.match(res.headers.get("set-cookie") ?? "", /^token=;/, "the cookie is dropped");
}

async function assertSentToSignIn(res: Response): Promise<void> {
  await res.body?.cancel();
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "/login");
}

Deno.test("a session of the other mode: API 401, pages to sign-in, in both directions", async (t) => {
  const consoleDeck = await startStack({ env: SHARED_KEY });
  const operatorDeck = await startOperatorStack({ env: SHARED_KEY });
  try {
    const consoleSession = await signInAsRoot(consoleDeck);
    const operatorSession = await signInOperator(operatorDeck, operatorDeck.cluster.operatorToken);

    await t.step("a console session at the operator Deck: its API refuses it", async () => {
      for (const path of ["/api/v1/tenants", `/api/v1${TENANT}`, "/api/v1/subscription/info"]) {
        await assertRefusedApi(await sendTo(operatorDeck.consoleUrl, consoleSession, path));
      }
    });
    await t.step("a console session at the operator Deck: the tenant proxy refuses it", async () => {
      const res = await sendTo(operatorDeck.consoleUrl, consoleSession, `/api/proxy${TENANT}/api/v1/buckets`);
      await assertRefusedApi(res);
    });
    await t.step(
      "a console session at the operator Deck: its pages send the browser to sign in",
      async () => {
        for (
          const path of ["/tenants", "/tenants/add", `${TENANT}/summary`, "/storage/volumes", "/license"]
        ) {
          await assertSentToSignIn(await sendTo(operatorDeck.consoleUrl, consoleSession, path));
        }
      },
    );
    await t.step("an operator session at the console Deck: its API refuses it", async () => {
      for (const path of ["/api/v1/buckets", "/api/v1/tenants", "/api/v1/session"]) {
        await assertRefusedApi(await sendTo(consoleDeck.consoleUrl, operatorSession, path));
      }
    });
    await t.step(
      "an operator session at the console Deck: its pages send the browser to sign in",
      async () => {
        for (const path of ["/buckets", "/tenants", `${TENANT}/summary`, "/license", "/"]) {
          await assertSentToSignIn(await sendTo(consoleDeck.consoleUrl, operatorSession, path));
        }
      },
    );
    await t.step("each session still works at its own Deck", async () => {
      assert.equal((await sendTo(operatorDeck.consoleUrl, operatorSession, "/tenants")).status, 200);
      assert.equal((await sendTo(consoleDeck.consoleUrl, consoleSession, "/buckets")).status, 200);
    });
  } finally {
    await operatorDeck.close();
    await consoleDeck.close();
  }
});
