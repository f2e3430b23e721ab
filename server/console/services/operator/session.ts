/**
 * Operator sign-in (operator-k8s.md §2, spec 1 'Operator Login'): the typed service-account token is checked
 * by the Kubernetes API server itself (an authenticated `GET /api`) before a session exists, and then rides
 * inside the sealed session cookie to authenticate every Kubernetes call of that person.
 */
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { t } from "../../../../islands/lib/i18n/t.ts";
import { type K8sClient, K8sError } from "../../k8s/client.ts";
import { OPERATOR_PAGES } from "../../session/pages.ts";
import type { SessionData } from "../../session/token.ts";
import type { SessionInfo } from "../../../lib/contract/session.ts";

/** The service account a token names (display only: the API server is what verified the token). */
export function tokenSubject(token: string): string {
  try {
    const payload = JSON.parse(
      new TextDecoder().decode(Uint8Array.fromBase64(token.split(".")[1] ?? "", { alphabet: "base64url" })),
    );
    return typeof payload?.sub === "string" ? payload.sub : "";
  } catch {
    return "";
  }
}

/** Checks `token` with the API server and builds the operator session; 401 "invalid Login" when refused. */
export async function signInOperator(
  operator: OperatorDeps,
  token: string,
  expiresAt: number,
): Promise<SessionData> {
  try {
    await operator.k8s.get(token, "/api", { timeoutMs: 10_000 });
  } catch (error) {
    if (error instanceof K8sError && (error.status === 401 || error.status === 403)) {
      throw ApiError.unauthorized(t("operator.login.invalid"), t("operator.login.tokenRefused"));
    }
    if (error instanceof K8sError && error.status >= 500) {
      throw new ApiError(503, t("operator.login.unreachable"), { detail: error.message });
    }
    throw ApiError.unauthorized(
      t("operator.login.invalid"),
      error instanceof Error ? error.message : String(error),
    );
  }
  return {
    accessKey: "",
    secretKey: "",
    sessionToken: "",
    account: tokenSubject(token) || "operator",
    distributed: false,
    sso: false,
    expiresAt,
    k8sToken: token,
  };
}

/** GET /api/v1/session for an operator session. */
export function operatorSessionInfo(): SessionInfo {
  return { status: "ok", operator: true, pages: OPERATOR_PAGES, features: [], distributedMode: false };
}

/** Whether the API server answers at all (a 401 for no token counts): the sign-in page's reachability check. */
export async function kubernetesReachable(k8s: K8sClient): Promise<boolean> {
  try {
    await k8s.get("", "/version", { timeoutMs: 3000 });
    return true;
  } catch (error) {
    return error instanceof K8sError && error.status < 500;
  }
}
