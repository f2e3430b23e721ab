/**
 * The Settings pages (spec 2 Settings, Webhook configuration view): /settings with its left menu
 * (Configurations, Lambda Notifications, Tiers, Identity; Tiers only on a distributed setup) where each section is one
 * island rendered with its data, and /webhook/logger, /webhook/audit.
 */
import { Hono } from "hono";
import type { ReactNode } from "react";
import SettingsConfigurations from "../islands/SettingsConfigurations.tsx";
import SettingsNotifications from "../islands/SettingsNotifications.tsx";
import SettingsTiers from "../islands/SettingsTiers.tsx";
import IdentityDiagnostics from "../islands/IdentityDiagnostics.tsx";
import WebhookConfig from "../islands/WebhookConfig.tsx";
import type { NotificationEndpoint, TierView } from "../server/lib/contract/settings.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import { CONFIGURATIONS } from "../server/lib/contract/settings_forms.ts";
import type { S3Client } from "../server/lib/s3/client.ts";
import { getConfig, notificationEndpoints } from "../server/console/services/settings.ts";
import { listTierViews } from "../server/console/services/settings_tiers.ts";
import { SectionLayout } from "./layout/SectionMenu.tsx";
import { PageHeader } from "./layout/Shell.tsx";
import { loadAll } from "./page_data.ts";
import { renderInShell } from "./page_context.tsx";
import { t } from "../islands/lib/i18n/t.ts";

const SECTIONS = [
  { id: "configurations", label: "settings.section.configurations" },
  { id: "notifications", label: "settings.section.notifications" },
  { id: "tiers", label: "settings.section.tiers", distributedOnly: true },
  { id: "identity", label: "settings.section.identity" },
] as const;
type SectionId = typeof SECTIONS[number]["id"];

function SettingsLayout(
  { base, section, distributed, children }: {
    base: string;
    section: SectionId;
    distributed: boolean;
    children: ReactNode;
  },
) {
  return (
    <>
      <PageHeader title={t("settings.page.title")} />
      <SectionLayout
        label={t("settings.page.sections")}
        current={section}
        items={SECTIONS.filter((s) => !("distributedOnly" in s) || distributed).map((s) => ({
          id: s.id,
          label: t(s.label),
          href: `${base}settings?section=${s.id}`,
        }))}
      >
        {children}
      </SectionLayout>
    </>
  );
}

const valuesOf = (info: { key_values: { key: string; value: string }[] }) =>
  Object.fromEntries(info.key_values.map(({ key, value }) => [key, value]));

/** Every configuration's stored values, secrets masked. */
async function storedConfigurations(client: S3Client): Promise<Record<string, Record<string, string>>> {
  const all = await Promise.all(
    CONFIGURATIONS.map(async (c) => [c.id, valuesOf(await getConfig(client, c.id))] as const),
  );
  return Object.fromEntries(all);
}

export function settingsPages(deps: AppDeps) {
  const base = deps.render.href("/");
  return new Hono<AppEnv>()
    .get("/settings", async (c) => {
      const session = c.get("session")!;
      const asked = c.req.query("section") as SectionId | undefined;
      const known = SECTIONS.find((s) =>
        s.id === asked && (!("distributedOnly" in s) || session.distributed)
      );
      const section: SectionId = known ? known.id : "configurations";
      let body: ReactNode;
      let error: unknown;
      if (section === "notifications") {
        const loaded = await loadAll<{ endpoints: NotificationEndpoint[] }>(deps, session, {
          endpoints: [(client) => notificationEndpoints(client), [], t("settings.section.notifications")],
        });
        error = loaded.error;
        body = (
          <Island
            name="SettingsNotifications"
            component={SettingsNotifications}
            props={{ endpoints: loaded.data.endpoints }}
          />
        );
      } else if (section === "identity") {
        body = <Island name="IdentityDiagnostics" component={IdentityDiagnostics} props={{}} />;
      } else if (section === "tiers") {
        // A failed tiers read is silently ignored (spec 2 §8).
        const loaded = await loadAll<{ tiers: TierView[] }>(deps, session, {
          tiers: [
            async (client) => (await listTierViews(client).catch(() => ({ items: [] }))).items,
            [],
            t("settings.section.tiers"),
          ],
        });
        body = <Island name="SettingsTiers" component={SettingsTiers} props={{ tiers: loaded.data.tiers }} />;
      } else {
        const loaded = await loadAll<{ values: Record<string, Record<string, string>> }>(deps, session, {
          values: [storedConfigurations, {}, t("settings.section.configurations")],
        });
        error = loaded.error;
        body = (
          <Island
            name="SettingsConfigurations"
            component={SettingsConfigurations}
            props={{ values: loaded.data.values }}
          />
        );
      }
      return renderInShell(deps, c, {
        title: t("settings.page.title"),
        error,
        body: (
          <SettingsLayout base={base} section={section} distributed={session.distributed}>
            {body}
          </SettingsLayout>
        ),
      });
    })
    .get("/webhook/:kind", async (c) => {
      const kind = c.req.param("kind");
      // An unknown segment renders nothing (spec 2).
      if (kind !== "logger" && kind !== "audit") {
        return renderInShell(deps, c, { title: t("settings.page.title"), body: null });
      }
      const title = kind === "logger" ? t("settings.webhook.loggerTitle") : t("settings.webhook.auditTitle");
      const { data, error } = await loadAll<{ values: Record<string, string> }>(deps, c.get("session")!, {
        values: [async (client) => valuesOf(await getConfig(client, `${kind}_webhook`)), {}, title],
      });
      return renderInShell(deps, c, {
        title,
        error,
        body: (
          <>
            <PageHeader title={title} />
            <Island name="WebhookConfig" component={WebhookConfig} props={{ kind, values: data.values }} />
          </>
        ),
      });
    });
}
