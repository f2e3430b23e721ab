/** Browser calls of the Jobs area (server/console/api/jobs.ts); progress comes over /ws/jobs. */
import type { CreateJobInput, JobList, JobView } from "../../../server/lib/contract/jobs.ts";
import { api, segment } from "../request.ts";

export const jobsApi = {
  create: (input: CreateJobInput) => api.post<JobView>("/api/v1/jobs", input),
  list: async () => (await api.get<JobList>("/api/v1/jobs")).jobs,
  cancel: (id: string) => api.post<JobView>(`/api/v1/jobs/${segment(id)}/cancel`),
};
