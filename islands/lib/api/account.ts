/** Browser calls of the Account area: own password and service accounts (api-index §4). */
import type { ServiceAccountCredentials } from "../../../server/lib/contract/account.ts";
import { api, segment } from "../request.ts";

/** Whose service accounts: the signed-in account (no user) or a named user. */
const base = (user?: string) => (user ? `/api/v1/user/${segment(user)}` : "/api/v1");

export const accountApi = {
  listServiceAccounts: async (user?: string) =>
    (await api.get<string[] | null>(`${base(user)}/service-accounts`)) ?? [],
  createServiceAccount: (
    request: { user?: string; policy: string; accessKey?: string; secretKey?: string },
  ) =>
    request.accessKey
      ? api.post<ServiceAccountCredentials>(`${base(request.user)}/service-account-credentials`, {
        policy: request.policy,
        accessKey: request.accessKey,
        secretKey: request.secretKey,
      })
      : api.post<ServiceAccountCredentials>(`${base(request.user)}/service-accounts`, {
        policy: request.policy,
      }),
  deleteServiceAccount: (accessKey: string) => api.delete(`/api/v1/service-accounts/${segment(accessKey)}`),
  changePassword: (current: string, next: string) =>
    api.post("/api/v1/account/change-password", { current_secret_key: current, new_secret_key: next }),
};
