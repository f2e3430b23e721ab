/** Browser calls of the Policies area (api-index §4, spec 2 §7). */
import type { PolicyDetailView, PolicyList, PolicySummary } from "../../../server/lib/contract/policies.ts";
import { api } from "../request.ts";

export const policiesApi = {
  list: async () => (await api.get<PolicyList>("/api/v1/policies?limit=1000")).policies ?? [],
  names: async () => (await policiesApi.list()).map((policy) => policy.name),
  get: (name: string) => api.get<PolicySummary>(`/api/v1/policy?name=${encodeURIComponent(name)}`),
  /** The Policy detail screen's view model, as the page was rendered from it. */
  detail: (name: string) =>
    api.get<PolicyDetailView>(`/api/v1/policy/detail?name=${encodeURIComponent(name)}`),
  save: (name: string, policy: string) => api.post<PolicySummary>("/api/v1/policies", { name, policy }),
  remove: (name: string) => api.delete(`/api/v1/policy?name=${encodeURIComponent(name)}`),
};
