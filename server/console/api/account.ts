/**
 * Account API (api-index §4): passwords and service accounts.
 *
 *   GET    /service-accounts                          own service accounts (access keys)
 *   POST   /service-accounts                          policy → 201 new credentials
 *   POST   /service-account-credentials               policy, accessKey, secretKey → 201
 *   DELETE /service-accounts/{accessKey}              → 204
 *   GET    /user/{name}/service-accounts              a user's service accounts
 *   POST   /user/{name}/service-accounts              → 201 new credentials
 *   POST   /user/{name}/service-account-credentials   → 201
 *   POST   /account/change-password                   current_secret_key, new_secret_key → 201, new session cookie
 *   POST   /account/change-user-password              selectedUser, newSecretKey → 201
 */
import { type Context, Hono } from "hono";
import {
  ChangePasswordInput,
  ChangeUserPasswordInput,
  CreateServiceAccountCredentialsInput,
  CreateServiceAccountInput,
} from "../../lib/contract/account.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import * as account from "../services/account.ts";
import * as sessions from "../services/session.ts";
import { clientFor, clientWithKeys } from "../session/clients.ts";
import { issueSessionCookie, requireSession } from "../session/middleware.ts";
import { readJson } from "./input.ts";
import { clientAddress } from "../http/forwarded.ts";
import { cookieSettings } from "./session.ts";
import { S3Error } from "../../lib/s3/errors.ts";

/** New credentials: 201 (the app marks every API answer no-store, so the secret never lingers in a cache). */
function credentials(c: Context, body: unknown) {
  return c.json(body, 201);
}

export function accountApi(deps: AppDeps) {
  const cookie = cookieSettings(deps);
  return new Hono<AppEnv>()
    .get(
      "/service-accounts",
      async (c) => c.json(await account.listServiceAccounts(clientFor(deps, requireSession(c)))),
    )
    .post("/service-accounts", async (c) => {
      const client = clientFor(deps, requireSession(c));
      const { policy } = await readJson(c, CreateServiceAccountInput);
      return credentials(c, await account.createServiceAccount(client, { policy }));
    })
    .post("/service-account-credentials", async (c) => {
      const client = clientFor(deps, requireSession(c));
      return credentials(
        c,
        await account.createServiceAccount(client, await readJson(c, CreateServiceAccountCredentialsInput)),
      );
    })
    .delete("/service-accounts/:accessKey", async (c) => {
      await account.deleteServiceAccount(clientFor(deps, requireSession(c)), c.req.param("accessKey"));
      return c.body(null, 204);
    })
    .get(
      "/user/:name{.+}/service-accounts",
      async (c) =>
        c.json(await account.listServiceAccounts(clientFor(deps, requireSession(c)), c.req.param("name"))),
    )
    .post("/user/:name{.+}/service-accounts", async (c) => {
      const client = clientFor(deps, requireSession(c));
      const { policy } = await readJson(c, CreateServiceAccountInput);
      return credentials(
        c,
        await account.createServiceAccount(client, { user: c.req.param("name"), policy }),
      );
    })
    .post("/user/:name{.+}/service-account-credentials", async (c) => {
      const client = clientFor(deps, requireSession(c));
      const input = await readJson(c, CreateServiceAccountCredentialsInput);
      return credentials(
        c,
        await account.createServiceAccount(client, { user: c.req.param("name"), ...input }),
      );
    })
    .post("/account/change-password", async (c) => {
      const session = requireSession(c);
      const input = await readJson(c, ChangePasswordInput);
      if (session.sso || !session.account) {
        throw ApiError.forbidden(
          "accounts signed in through an identity provider change their password there",
        );
      }
      try {
        const ownClient = (secret: string) => clientWithKeys(deps, session.account, secret);
        await account.changeOwnPassword(
          ownClient,
          input.current_secret_key,
          session.account,
          input.new_secret_key,
        );
      } catch (error) {
        // A wrong current secret fails the signature (or, for a key the server does not know, the key check).
        if (
          error instanceof S3Error &&
          (error.code === "SignatureDoesNotMatch" || error.code === "InvalidAccessKeyId")
        ) {
          throw ApiError.forbidden(
            "error please check your current password",
            "The current password is wrong.",
          );
        }
        throw error;
      }
      // Sign in again with the new secret, as the original did, so the session continues.
      const renewed = await sessions.signIn(deps, {
        accessKey: session.account,
        secretKey: input.new_secret_key,
      }, clientAddress(c, deps.config.trustForwarded));
      await issueSessionCookie(c, deps.sessionKey, renewed, cookie, deps.now());
      return c.json({}, 201);
    })
    .post("/account/change-user-password", async (c) => {
      const client = clientFor(deps, requireSession(c));
      await account.changeUserPassword(client, await readJson(c, ChangeUserPasswordInput));
      return c.json({}, 201);
    });
}
