/** Wire types and input schemas of the Account area: own password and service accounts (api-index §4). */
import { iamNameProblem } from "./iam_names.ts";
import * as s from "./schema.ts";

/** Secret keys hold 8 to 40 characters (MinIO's rule); the spec words the short case, Deck the long one alike. */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 40;
export const SHORT_PASSWORD = "Passwords must be at least 8 characters long";
export const LONG_PASSWORD = "Passwords must be at most 40 characters long";

/** What is wrong with a new secret key, or "" (shared by the dialogs and the API's schemas). */
export function passwordProblem(secret: string): string {
  if (secret.length < MIN_PASSWORD) return SHORT_PASSWORD;
  if (secret.length > MAX_PASSWORD) return LONG_PASSWORD;
  return "";
}

/** The schema of a new secret key, with the same two messages. */
export const newSecret = () =>
  s.string({ min: MIN_PASSWORD, max: MAX_PASSWORD, message: SHORT_PASSWORD, maxMessage: LONG_PASSWORD });

/** New credentials: shown once, never stored by the console. */
export interface ServiceAccountCredentials {
  accessKey: string;
  secretKey: string;
}

/** POST /api/v1/service-accounts and /user/{name}/service-accounts: optional policy JSON text. */
export const CreateServiceAccountInput = s.object({
  policy: s.optional(s.string({ max: 20_480 }), ""),
});
export type CreateServiceAccountInput = s.Infer<typeof CreateServiceAccountInput>;

/** POST /api/v1/service-account-credentials and /user/{name}/service-account-credentials. */
export const CreateServiceAccountCredentialsInput = s.object({
  policy: s.optional(s.string({ max: 20_480 }), ""),
  accessKey: s.string({
    min: 3,
    max: 20,
    pattern: /^[^=,\s]+$/,
    message: "the access key must hold 3 to 20 characters without =, comma or spaces",
    problem: (key) => iamNameProblem(key, "Access key"),
  }),
  secretKey: s.string({
    min: MIN_PASSWORD,
    max: MAX_PASSWORD,
    message: "the secret key must hold 8 to 40 characters",
  }),
});
export type CreateServiceAccountCredentialsInput = s.Infer<typeof CreateServiceAccountCredentialsInput>;

/** POST /api/v1/account/change-password */
export const ChangePasswordInput = s.object({
  current_secret_key: s.string({ min: 1, max: 40 }),
  new_secret_key: newSecret(),
});
export type ChangePasswordInput = s.Infer<typeof ChangePasswordInput>;

/** POST /api/v1/account/change-user-password */
export const ChangeUserPasswordInput = s.object({
  selectedUser: s.string({ min: 1, max: 128 }),
  newSecretKey: newSecret(),
});
export type ChangeUserPasswordInput = s.Infer<typeof ChangeUserPasswordInput>;
