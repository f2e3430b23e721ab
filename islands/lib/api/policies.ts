/** Browser calls of the Policies area (api-index §4, spec 2 §7). */
import type { PolicyList, PolicySummary } from "../../../server/lib/contract/policies.ts";
import { api, segment } from "../request.ts";

export const policiesApi = {
  list: async () => (await api.get<PolicyList>("/api/v1/policies?limit=1000")).policies ?? [],
  get: (name: string) => api.get<PolicySummary>(`/api/v1/policy?name=${encodeURIComponent(name)}`),
  save: (name: string, policy: string) => api.post<PolicySummary>("/api/v1/policies", { name, policy }),
  remove: (name: string) => api.delete(`/api/v1/policy?name=${encodeURIComponent(name)}`),
  users: async (name: string) =>
    (await api.get<string[] | null>(`/api/v1/policies/${segment(name)}/users`)) ?? [],
  groups: async (name: string) =>
    (await api.get<string[] | null>(`/api/v1/policies/${segment(name)}/groups`)) ?? [],
};
