/** Browser calls of the Users area (api-index §4). */
import type {
  AccessCheck,
  AddUserInput,
  UpdateUserInput,
  User,
  UserDetailView,
  UserList,
} from "../../../server/lib/contract/users.ts";
import { api, segment } from "../request.ts";

const q = encodeURIComponent;

export const usersApi = {
  list: async () => (await api.get<UserList>("/api/v1/users")).users ?? [],
  names: async () => (await usersApi.list()).map((user) => user.accessKey),
  get: (name: string) => api.get<User>(`/api/v1/user?name=${q(name)}`),
  /** The User detail screen's view model, as the page was rendered from it. */
  detail: (name: string) => api.get<UserDetailView>(`/api/v1/user/detail?name=${q(name)}`),
  create: (input: AddUserInput) => api.post<User>("/api/v1/users", input),
  update: (name: string, input: UpdateUserInput) => api.put<User>(`/api/v1/user?name=${q(name)}`, input),
  remove: (name: string) => api.delete(`/api/v1/user?name=${q(name)}`),
  addToGroups: (users: string[], groups: string[]) => api.put("/api/v1/users-groups-bulk", { users, groups }),
  setPolicies: (policies: string[], entityName: string, entityType: "user" | "group") =>
    api.put(`/api/v1/set-policy/${segment(policies.join(","))}`, { entityName, entityType }),
  checkAccess: (name: string, action: string, resource: string) =>
    api.get<AccessCheck>(
      `/api/v1/user/access-check?name=${q(name)}&action=${q(action)}&resource=${q(resource)}`,
    ),
  changePassword: (selectedUser: string, newSecretKey: string) =>
    api.post("/api/v1/account/change-user-password", { selectedUser, newSecretKey }),
};
