/** Browser calls of the Settings area (api-index §7, spec 2 §7). */
import type {
  AddTierInput,
  ConfigInfo,
  NotificationEndpoint,
  TierCredentialsInput,
  TierView,
} from "../../../server/lib/contract/settings.ts";
import { api, segment } from "../request.ts";

export type KeyValue = { key: string; value: string };

export const settingsApi = {
  config: (name: string) => api.get<ConfigInfo>(`/api/v1/configs/${segment(name)}`),
  /** Saves a configuration or adds a notification target (`notify_<service>`); empty values are dropped. */
  setConfig: (name: string, keyValues: KeyValue[]) =>
    api.put<{ restart: boolean }>(`/api/v1/configs/${segment(name)}`, {
      key_values: keyValues.filter((kv) => kv.value !== ""),
    }),
  notificationEndpoints: async () =>
    (await api.get<{ notification_endpoints: NotificationEndpoint[] | null }>(
      "/api/v1/admin/notification_endpoints",
    )).notification_endpoints ?? [],
  tiers: async () => (await api.get<{ items: TierView[] | null }>("/api/v1/admin/tiers")).items ?? [],
  addTier: (input: AddTierInput) => api.post("/api/v1/admin/tiers", input),
  setTierCredentials: (type: string, name: string, input: Partial<TierCredentialsInput>) =>
    api.put(`/api/v1/admin/tiers/${segment(type)}/${segment(name)}/credentials`, input),
  restart: () => api.post("/api/v1/service/restart", {}),
};
