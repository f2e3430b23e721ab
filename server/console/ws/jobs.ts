/**
 * /ws/jobs: the signed-in user's jobs as they change ({type: "jobs", jobs}), sent at most every UPDATE_MS so a
 * job copying thousands of objects a second costs the page two messages a second. Opening it also hands the
 * user's session to their jobs (services/jobs.ts: a waiting job resumes, a running one keeps a live session).
 */
import type { JobsMessage } from "../../lib/contract/jobs.ts";
import type { AppDeps } from "../deps.ts";
import { liveAccess } from "../session/live_access.ts";
import { relay } from "./relay.ts";

/** The shortest time between two updates of one page. */
export const UPDATE_MS = 500;

export const jobsRelay = (deps: AppDeps) =>
  relay(deps, {
    parse: () => ({}),
    permission: () => ({ action: "" }),
    async *open({ session, signal }): AsyncGenerator<JobsMessage> {
      const owner = (await liveAccess(deps, session)).account;
      await deps.jobs.useSession(owner, session);
      let changed = true;
      let wake: (() => void) | null = null;
      const unsubscribe = deps.jobs.subscribe((who) => {
        if (who !== owner) return;
        changed = true;
        wake?.();
      });
      const stopped = new Promise<void>((resolve) =>
        signal.addEventListener("abort", () => resolve(), { once: true })
      );
      try {
        while (!signal.aborted) {
          if (!changed) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), stopped]);
          if (signal.aborted) return;
          changed = false;
          yield { type: "jobs", jobs: deps.jobs.list(owner) };
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, UPDATE_MS))), stopped]);
          clearTimeout(timer);
        }
      } finally {
        unsubscribe();
      }
    },
  });
