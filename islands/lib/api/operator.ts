/** Browser calls of operator mode's tenant area (api-index §9, spec 3 §7.1). */
import type {
  CreateTenantInput,
  CreateTenantResponse,
  PodEvent,
  PodInfo,
  PoolInput,
  ResourceQuotaInfo,
  TenantInfo,
  TenantList,
  TenantSecurity,
  TenantUsage,
  UpdateSecurityInput,
  UpdateTenantInput,
} from "../../../server/lib/contract/operator.ts";
import { api, segment } from "../request.ts";

const t = (namespace: string, tenant: string) =>
  `/api/v1/namespaces/${segment(namespace)}/tenants/${segment(tenant)}`;

export const operatorApi = {
  listTenants: () => api.get<TenantList>("/api/v1/tenants"),
  namespaceTenants: (namespace: string) =>
    api.get<TenantList>(`/api/v1/namespaces/${segment(namespace)}/tenants`),
  createTenant: (input: CreateTenantInput) => api.post<CreateTenantResponse>("/api/v1/tenants", input),
  tenant: (namespace: string, tenant: string) => api.get<TenantInfo>(t(namespace, tenant)),
  updateTenant: (namespace: string, tenant: string, input: UpdateTenantInput) =>
    api.put(t(namespace, tenant), input),
  deleteTenant: (namespace: string, tenant: string, confirm: string) =>
    api.delete(t(namespace, tenant), { confirm }),
  usage: (namespace: string, tenant: string) => api.get<TenantUsage>(`${t(namespace, tenant)}/usage`),
  yaml: async (namespace: string, tenant: string) =>
    (await api.get<{ yaml: string }>(`${t(namespace, tenant)}/yaml`)).yaml,
  putYaml: (namespace: string, tenant: string, yaml: string) =>
    api.put(`${t(namespace, tenant)}/yaml`, { yaml }),
  pods: (namespace: string, tenant: string) => api.get<PodInfo[]>(`${t(namespace, tenant)}/pods`),
  deletePod: (namespace: string, tenant: string, pod: string, confirm: string) =>
    api.delete(`${t(namespace, tenant)}/pods/${segment(pod)}`, { confirm }),
  podLogs: (namespace: string, tenant: string, pod: string) =>
    api.get<string>(`${t(namespace, tenant)}/pods/${segment(pod)}`),
  podEvents: (namespace: string, tenant: string, pod: string) =>
    api.get<PodEvent[]>(`${t(namespace, tenant)}/pods/${segment(pod)}/events`),
  addPool: (namespace: string, tenant: string, pool: PoolInput) =>
    api.post(`${t(namespace, tenant)}/pools`, pool),
  security: (namespace: string, tenant: string) =>
    api.get<TenantSecurity>(`${t(namespace, tenant)}/security`),
  updateSecurity: (namespace: string, tenant: string, input: UpdateSecurityInput) =>
    api.post(`${t(namespace, tenant)}/security`, input),
  createNamespace: (name: string) => api.post("/api/v1/namespace", { name }),
  quota: (namespace: string) =>
    api.get<ResourceQuotaInfo>(
      `/api/v1/namespaces/${segment(namespace)}/resourcequotas/${segment(`${namespace}-storagequota`)}`,
    ),
  maxMemory: async (nodes: number) =>
    (await api.get<{ max_memory: number }>(`/api/v1/cluster/max-allocatable-memory?num_nodes=${nodes}`))
      .max_memory,
  parity: (nodes: number, drives: number) => api.get<string[]>(`/api/v1/get-parity/${nodes}/${drives}`),
  nodeLabels: () => api.get<Record<string, string[]>>("/api/v1/nodes/labels"),
  /** 'Attach License': the subscription in force into the tenant's configuration. */
  attachLicense: (namespace: string, tenant: string) =>
    api.post(`/api/v1/subscription${t(namespace, tenant).slice("/api/v1".length)}/activate`, {}),
};
