/**
 * In place of a page the storage server cannot serve (server/console/session/capabilities.ts): what is missing,
 * why the page needs it, and what the server does speak, so a link from elsewhere does not just bounce.
 */
import type { ServerCapabilities } from "../../server/lib/contract/capabilities.ts";
import type { MissingCapability } from "../../server/console/session/capabilities.ts";
import { PageHeader } from "./Shell.tsx";
import { type MessageKey, t } from "../../islands/lib/i18n/t.ts";

/**
 * The two missing capabilities server/console/session/capabilities.ts names, by their English `what`: their
 * texts in the page's language (an unknown one is shown as the server module wrote it).
 */
const KNOWN: Record<string, { what: MessageKey; why: MessageKey }> = {
  "MinIO's admin API": { what: "common.unsupported.adminApi", why: "common.unsupported.adminApiWhy" },
  "MinIO's bucket notification stream": {
    what: "common.unsupported.listen",
    why: "common.unsupported.listenWhy",
  },
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
  const known = KNOWN[missing.what];
  const what = known ? t(known.what) : missing.what;
  const why = known ? t(known.why) : missing.why;
  return (
    <>
      <PageHeader title={t("common.unsupported.title")} />
      <div role="status" className="alert alert-info" data-testid="unsupported">
        {/* One child: the alert lays its children out in columns. */}
        <div className="space-y-1">
          <p className="font-semibold">
            {t("common.unsupported.why", { why: why[0].toUpperCase() + why.slice(1) })}
          </p>
          <p>{t("common.unsupported.missing", { what })}</p>
          <p>
            {caps.server
              ? t("common.unsupported.serverNamed", { endpoint: caps.endpoint, name: caps.server })
              : t("common.unsupported.server", { endpoint: caps.endpoint })}
          </p>
        </div>
      </div>
      <p className="mt-4">
        {t("common.unsupported.hint")}{" "}
        <a className="link" href={`${base}object-browser`}>{t("common.menu.objectBrowser")}</a>
      </p>
      {/* After an upgrade or a switch of server: asks again now instead of waiting for the kept answer to age. */}
      <form method="post" action={`${base}server-check`} className="mt-4">
        <input type="hidden" name="back" value={path} />
        <button type="submit" className="btn btn-sm">{t("common.unsupported.checkAgain")}</button>
      </form>
    </>
  );
}
