/**
 * In place of a page the storage server cannot serve (server/console/session/capabilities.ts): what is missing,
 * why the page needs it, and what the server does speak, so a link from elsewhere does not just bounce.
 */
import type { ServerCapabilities } from "../../server/lib/contract/capabilities.ts";
import type { MissingCapability } from "../../server/console/session/capabilities.ts";
import { PageHeader } from "./Shell.tsx";

const TEXT = {
  title: "Not available on this server",
  missing: (what: string) => `Missing: ${what}.`,
  server: (endpoint: string, name: string) => `Storage server: ${endpoint}${name ? ` (${name})` : ""}.`,
  hint: "Buckets and the Object Browser work with any S3 server; the other areas need MinIO.",
  checkAgain: "Check the server again",
};

export function Unsupported(
  { missing, caps, base, path }: {
    missing: MissingCapability;
    caps: ServerCapabilities;
    base: string;
    /** This page's path, to come back to after checking again. */
    path: string;
  },
) {
  return (
    <>
      <PageHeader title={TEXT.title} />
      <div role="status" className="alert alert-info" data-testid="unsupported">
        {/* One child: the alert lays its children out in columns. */}
        <div className="space-y-1">
          <p className="font-semibold">{missing.why[0].toUpperCase() + missing.why.slice(1)}.</p>
          <p>{TEXT.missing(missing.what)}</p>
          <p>{TEXT.server(caps.endpoint, caps.server)}</p>
        </div>
      </div>
      <p className="mt-4">
        {TEXT.hint} <a className="link" href={`${base}object-browser`}>Object Browser</a>
      </p>
      {/* After an upgrade or a switch of server: asks again now instead of waiting for the kept answer to age. */}
      <form method="post" action={`${base}server-check`} className="mt-4">
        <input type="hidden" name="back" value={path} />
        <button type="submit" className="btn btn-sm">{TEXT.checkAgain}</button>
      </form>
    </>
  );
}
