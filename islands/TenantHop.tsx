/**
 * The tenant management (hop) screen (spec 3 §2.3b): the tenant's own console in a frame through the tenant
 * proxy, with a loader until the frame has loaded, a refresh that adds the cp=y marker or reloads, and a
 * button back to the tenant.
 */
import { useRef, useState } from "react";
import { t } from "./lib/i18n/t.ts";

export interface TenantHopProps {
  /** The proxy address of the tenant's console, e.g. /api/proxy/ns/t/. */
  src: string;
  tenantHref: string;
}

export default function TenantHop({ src, tenantHref }: TenantHopProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [address, setAddress] = useState(src);
  const [loading, setLoading] = useState(true);
  function refresh() {
    setLoading(true);
    if (!address.includes("cp=y")) setAddress(`${address}${address.includes("?") ? "&" : "?"}cp=y`);
    else frame.current?.contentWindow?.location.reload();
  }
  return (
    <div className="flex flex-col h-[calc(100vh-7rem)]">
      <div className="flex gap-2 mb-2">
        <button type="button" className="btn btn-sm" onClick={refresh}>{t("common.action.refresh")}</button>
        <a className="btn btn-sm" href={tenantHref}>{t("operator.hop.back")}</a>
      </div>
      <div className="relative flex-1 border border-base-300 rounded-box overflow-hidden bg-base-100">
        {loading
          ? (
            <div className="absolute inset-0 flex items-center justify-center" data-testid="hop-loader">
              <span
                role="status"
                className="loading loading-spinner loading-lg"
                aria-label={t("operator.hop.loading")}
              />
            </div>
          )
          : null}
        <iframe
          ref={frame}
          src={address}
          title={t("operator.hop.frameTitle")}
          className="w-full h-full"
          onLoad={() => setLoading(false)}
        />
      </div>
    </div>
  );
}
