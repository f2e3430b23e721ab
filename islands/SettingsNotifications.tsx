/**
 * Settings › Lambda Notifications (spec 2): the targets with their Status (Offline in its own colour) and
 * Service ('service:account_id'), a filter, Refresh and 'Add Notification Target'. Adding takes three
 * slides: the list, 'Pick a supported service', then '{service} - Add Lambda Notification Target', with
 * 'Back To Lambda Notifications' and 'Back To Supported Services'.
 */
import { useState } from "react";
import type { NotificationEndpoint } from "../server/lib/contract/settings.ts";
import {
  NOTIFICATION_SERVICES,
  type NotificationServiceDef,
} from "../server/lib/contract/settings_targets.ts";
import { settingsApi } from "./lib/api/settings.ts";
import { noteConfigSaved } from "./lib/restart.ts";
import { useList } from "./lib/use_list.ts";
import { ConfigForm } from "./settings/ConfigForm.tsx";
import { BackButton, Slide } from "./settings/Slides.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

export interface SettingsNotificationsProps {
  endpoints: NotificationEndpoint[];
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Online and Offline in the page's language; any other status the server reports, as it came. */
const statusText = (status: string) =>
  status.toLowerCase() === "online"
    ? t("settings.notifications.online")
    : status.toLowerCase() === "offline"
    ? t("settings.notifications.offline")
    : capitalise(status);
const serviceName = (e: NotificationEndpoint) => `${e.service}:${e.account_id}`;

export default function SettingsNotifications({ endpoints: initial }: SettingsNotificationsProps) {
  const endpoints = useList(settingsApi.notificationEndpoints, initial);
  const [filter, setFilter] = useState("");
  const [step, setStep] = useState<{ index: 0 | 1 | 2; from: number; service?: NotificationServiceDef }>({
    index: 0,
    from: 0,
  });
  const go = (index: 0 | 1 | 2, service?: NotificationServiceDef) =>
    setStep({ index, from: step.index, service });

  if (step.index === 1) {
    return (
      <Slide index={1} from={step.from}>
        <BackButton label={t("settings.notifications.back")} onClick={() => go(0)} />
        <h2 className="text-xl font-bold mb-4">{t("settings.notifications.pickService")}</h2>
        <div className="grid grid-cols-2 sm:grid-cols-3 lg:grid-cols-5 gap-3" role="list">
          {NOTIFICATION_SERVICES.map((service) => (
            <button
              key={service.id}
              type="button"
              role="listitem"
              className="btn h-20 bg-base-100 border-base-300 text-base"
              // The services' names are product names, in every language.
              translate="no"
              onClick={() => go(2, service)}
            >
              {service.label}
            </button>
          ))}
        </div>
      </Slide>
    );
  }
  if (step.index === 2 && step.service) {
    const service = step.service;
    return (
      <Slide index={2} from={step.from}>
        <BackButton label={t("settings.notifications.backToServices")} onClick={() => go(1)} />
        <h2 className="text-xl font-bold mb-4">
          {tNode("settings.notifications.addTitle", { service: <span translate="no">{service.label}</span> })}
        </h2>
        <div className="bg-base-100 rounded-box p-4 max-w-3xl">
          <ConfigForm
            key={service.id}
            fields={service.fields}
            connection={service.id === "postgres" || service.id === "mysql" ? service.id : undefined}
            onSubmit={async (keyValues) => {
              await settingsApi.setConfig(`notify_${service.id}`, keyValues);
              noteConfigSaved();
              showSnackbar(t("settings.notifications.saved", { service: service.label }));
              go(0);
              await endpoints.reload();
            }}
          />
        </div>
      </Slide>
    );
  }
  const shown = endpoints.value.filter((e) => serviceName(e).toLowerCase().includes(filter.toLowerCase()));
  return (
    <Slide index={0} from={step.from}>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("common.action.filter")} value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          <button type="button" className="btn btn-sm" onClick={endpoints.reload}>
            {t("common.action.refresh")}
          </button>
          <button type="button" className="btn btn-sm btn-primary" onClick={() => go(1)}>
            {t("settings.notifications.add")}
          </button>
        </div>
      </div>
      <DataTable<NotificationEndpoint>
        entity={t("settings.notifications.entity")}
        id="notification targets"
        emptyMessage={filter !== "" ? t("settings.notifications.noMatch") : t("settings.notifications.empty")}
        rows={shown}
        rowId={serviceName}
        columns={[
          {
            id: "status",
            label: t("common.word.status"),
            value: (e) => statusText(e.status),
            render: (e) => (
              <span
                className={e.status.toLowerCase() === "offline"
                  ? "deck-status-offline"
                  : "deck-status-online"}
              >
                {statusText(e.status)}
              </span>
            ),
            width: 120,
          },
          { id: "service", label: t("settings.notifications.service"), value: serviceName, sortable: true },
        ]}
        initialSort={{ id: "service" }}
      />
    </Slide>
  );
}
