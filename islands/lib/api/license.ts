/** Browser calls of the License area (api-index §11). */
import type { SubscriptionInfo } from "../../../server/lib/contract/license.ts";
import { api } from "../request.ts";

export const licenseApi = {
  info: () => api.get<SubscriptionInfo>("/api/v1/subscription/info"),
  validate: (input: { license?: string; email?: string; password?: string }) =>
    api.post<SubscriptionInfo>("/api/v1/subscription/validate", input),
  refresh: () => api.post<SubscriptionInfo>("/api/v1/subscription/refresh", {}),
};
