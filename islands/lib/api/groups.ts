/** Browser calls of the Groups area (api-index §4). */
import type { Group, GroupList } from "../../../server/lib/contract/groups.ts";
import { api } from "../request.ts";

const q = encodeURIComponent;

export const groupsApi = {
  list: async () => (await api.get<GroupList>("/api/v1/groups")).groups ?? [],
  get: (name: string) => api.get<Group>(`/api/v1/group?name=${q(name)}`),
  create: (group: string, members: string[]) => api.post("/api/v1/groups", { group, members }),
  update: (name: string, members: string[], status: Group["status"]) =>
    api.put<Group>(`/api/v1/group?name=${q(name)}`, { group: name, members, status }),
  remove: (name: string) => api.delete(`/api/v1/group?name=${q(name)}`),
};
