/**
 * Operator mode's one session guard, for its pages, its API and the tenant proxy alike. A signed-in operator
 * holds a Kubernetes token; anything else is 401, which the error handler answers per kind of request: the
 * error contract for the API, a redirect to sign-in for pages, and the cookie dropped either way.
 */
import type { Context } from "hono";
import type { AppEnv } from "./env.ts";
import type { OperatorDeps } from "../k8s/connection.ts";
import { ApiError } from "../http/errors.ts";

/** What an operator-mode handler works with: the cluster and the caller's own Kubernetes token. */
export interface OperatorSession {
  op: OperatorDeps;
  token: string;
}

/** The operator deps and the signed-in operator's token; 401 without an operator session. */
export function operatorOf(c: Context<AppEnv>, deps: { operator?: OperatorDeps }): OperatorSession {
  const token = c.get("session")?.k8sToken;
  if (!deps.operator || !token) {
    throw ApiError.unauthorized("invalid session", "sign in with a service-account token");
  }
  return { op: deps.operator, token };
}
