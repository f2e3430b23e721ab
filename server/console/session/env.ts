/** The console's Hono environment: what middleware leaves on each request for the handlers after it. */
import type { ServerCapabilities } from "../../lib/contract/capabilities.ts";
import type { LiveAccess } from "./live_access.ts";
import type { SessionData } from "./token.ts";

export interface AppEnv {
  Variables: {
    requestId: string;
    /** The signed-in session, or null; set by loadSession for every request. */
    session: SessionData | null;
    /** What the session may do now (server/console/session/live_access.ts); set by the page guard for pages. */
    access?: LiveAccess;
    /** What the storage server speaks (server/console/session/capabilities.ts); set by the page guard. */
    capabilities?: ServerCapabilities;
  };
}
