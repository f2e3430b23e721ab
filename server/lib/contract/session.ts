/** Wire types and input schemas of sign-in and session (api-index §2). Imported by the server and islands. */
import * as s from "./schema.ts";

export type LoginStrategyName = "form" | "redirect" | "service-account";

/** GET /api/v1/login */
export interface LoginStrategy {
  loginStrategy: LoginStrategyName;
  /** The identity provider's authorisation URL (redirect strategy only). */
  redirect?: string;
}

/** POST /api/v1/login */
export const LoginInput = s.object({
  accessKey: s.string({ min: 1, max: 1024 }),
  secretKey: s.string({ min: 1, max: 1024 }),
});
export type LoginInput = s.Infer<typeof LoginInput>;

/** POST /api/v1/login/operator: a Kubernetes service-account token. */
export const OperatorLoginInput = s.object({
  // A service-account token is about 1 KB; the sealed session must fit in one 4 KB cookie.
  jwt: s.string({ min: 1, max: 2800, trim: true }),
});
export type OperatorLoginInput = s.Infer<typeof OperatorLoginInput>;

/** POST /api/v1/login/oauth2/auth */
export const OAuthCallbackInput = s.object({
  code: s.string({ min: 1, max: 4096 }),
  state: s.string({ min: 1, max: 8192 }),
});
export type OAuthCallbackInput = s.Infer<typeof OAuthCallbackInput>;

/** GET /api/v1/session. `operator` is omitted in console mode, as the original serialised it. */
export interface SessionInfo {
  status: "ok";
  pages: string[];
  features: string[];
  distributedMode: boolean;
  operator?: boolean;
}
