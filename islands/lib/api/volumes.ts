/** Browser calls of operator mode's storage area (api-index §10). */
import type { DriveInfo, FormatIssue, PvcInfo } from "../../../server/lib/contract/volumes.ts";
import { api } from "../request.ts";

export const volumesApi = {
  pvcs: async () => (await api.get<{ pvcs: PvcInfo[] | null }>("/api/v1/list-pvcs")).pvcs ?? [],
  drives: async () =>
    (await api.get<{ drives: DriveInfo[] | null }>("/api/v1/direct-csi/drives")).drives ?? [],
  format: async (drives: string[], force: boolean, confirm: string) =>
    (await api.post<{ formatIssuesList: FormatIssue[] | null }>("/api/v1/direct-csi/drives/format", {
      drives,
      force,
      confirm,
    })).formatIssuesList ?? [],
};
