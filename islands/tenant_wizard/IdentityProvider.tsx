/**
 * Identity Provider page (advanced; spec 3 §2.3, §5): built-in key pairs (randomize, at least one pair),
 * OpenID, or Active Directory with its unencrypted-traffic warning.
 */
import { randomKey } from "../../server/lib/contract/operator_rules.ts";
import { t } from "../lib/i18n/t.ts";
import { Switch, TextField } from "../ui/fields.tsx";
import { RadioGroup } from "./controls.tsx";
import type { PageProps } from "./NameTenant.tsx";
import { idpErrors } from "./rules.ts";

export function IdentityProvider({ state, patch }: PageProps) {
  const idp = state.idp;
  const errors = idpErrors(state);
  const setKeys = (keys: typeof idp.keys) => patch("idp", { keys });
  const openid = (value: Partial<typeof idp.openid>) => patch("idp", { openid: { ...idp.openid, ...value } });
  const ad = (value: Partial<typeof idp.ad>) => patch("idp", { ad: { ...idp.ad, ...value } });
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">{t("wizard.steps.identityProvider")}</h2>
      <p className="text-sm text-base-content/70 mb-4">
        {t("wizard.idp.intro")}
      </p>
      <RadioGroup
        label={t("wizard.idp.protocol")}
        value={idp.kind}
        onChange={(kind) => patch("idp", { kind })}
        options={[
          { value: "builtin", label: t("wizard.word.builtin") },
          { value: "openid", label: "OpenID" },
          {
            value: "ad",
            label: "Active Directory",
          },
        ]}
      />
      {idp.kind === "builtin"
        ? (
          <div>
            <p className="text-sm mb-2">{t("wizard.idp.additionalUsers")}</p>
            {idp.keys.map((pair, i) => (
              <div key={i} className="flex flex-wrap items-start gap-2">
                <div className="flex-1 min-w-48">
                  <TextField
                    label={t("wizard.idp.accessKeyN", { n: i + 1 })}
                    value={pair.accessKey}
                    onChange={(accessKey) =>
                      setKeys(idp.keys.map((k, j) => (j === i ? { ...k, accessKey } : k)))}
                    error={errors[`accessKey${i}`]}
                  />
                </div>
                <div className="flex-1 min-w-48">
                  <TextField
                    label={t("wizard.idp.secretKeyN", { n: i + 1 })}
                    value={pair.secretKey}
                    onChange={(secretKey) =>
                      setKeys(idp.keys.map((k, j) => (j === i ? { ...k, secretKey } : k)))}
                    error={errors[`secretKey${i}`]}
                  />
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-ghost mt-7"
                  aria-label={t("wizard.idp.removeKeyPair", { n: i + 1 })}
                  disabled={idp.keys.length === 1}
                  onClick={() => idp.keys.length > 1 && setKeys(idp.keys.filter((_, j) => j !== i))}
                >
                  −
                </button>
              </div>
            ))}
            <div className="flex gap-2">
              <button
                type="button"
                className="btn btn-sm"
                onClick={() => setKeys([...idp.keys, { accessKey: "", secretKey: "" }])}
              >
                {t("wizard.idp.addUser")}
              </button>
              <button
                type="button"
                className="btn btn-sm"
                onClick={() =>
                  setKeys(idp.keys.map(() => ({ accessKey: randomKey(16), secretKey: randomKey(32) })))}
              >
                {t("wizard.idp.randomize")}
              </button>
            </div>
          </div>
        )
        : null}
      {idp.kind === "openid"
        ? (
          <div className="grid sm:grid-cols-2 gap-x-4">
            <TextField
              label="URL"
              value={idp.openid.url}
              onChange={(url) => openid({ url })}
              error={errors.url}
            />
            <TextField
              label={t("wizard.idp.configurationUrl")}
              value={idp.openid.configurationUrl}
              onChange={(configurationUrl) => openid({ configurationUrl })}
              error={errors.configurationUrl}
            />
            <TextField
              label={t("wizard.word.clientId")}
              value={idp.openid.clientId}
              onChange={(clientId) => openid({ clientId })}
              error={errors.clientId}
            />
            <TextField
              label={t("wizard.idp.secretId")}
              value={idp.openid.secretId}
              onChange={(secretId) => openid({ secretId })}
              error={errors.secretId}
            />
            <TextField
              label={t("wizard.idp.claimName")}
              value={idp.openid.claimName}
              onChange={(claimName) => openid({ claimName })}
              error={errors.claimName}
            />
            <TextField
              label={t("wizard.idp.callbackUrl")}
              value={idp.openid.callbackUrl}
              onChange={(callbackUrl) => openid({ callbackUrl })}
            />
            <TextField
              label={t("wizard.idp.scopes")}
              placeholder="openid,profile,email"
              value={idp.openid.scopes}
              onChange={(scopes) => openid({ scopes })}
            />
          </div>
        )
        : null}
      {idp.kind === "ad"
        ? (
          <div>
            <TextField
              label={t("wizard.idp.ldapServer")}
              value={idp.ad.url}
              onChange={(url) => ad({ url })}
              error={errors.adUrl}
            />
            <Switch
              label={t("wizard.idp.skipTls")}
              checked={idp.ad.skipTls}
              onChange={(skipTls) => ad({ skipTls })}
            />
            <Switch
              label={t("wizard.idp.serverInsecure")}
              checked={idp.ad.serverInsecure}
              onChange={(serverInsecure) => ad({ serverInsecure })}
            />
            {idp.ad.serverInsecure
              ? (
                <div role="alert" className="alert alert-warning text-sm mb-3">
                  {t("wizard.idp.insecureWarning")}
                </div>
              )
              : null}
            <Switch
              label={t("wizard.idp.startTls")}
              checked={idp.ad.startTls}
              onChange={(startTls) => ad({ startTls })}
            />
            <div className="grid sm:grid-cols-2 gap-x-4">
              <TextField
                label={t("wizard.idp.userSearchFilter")}
                value={idp.ad.usernameSearchFilter}
                onChange={(usernameSearchFilter) => ad({ usernameSearchFilter })}
              />
              <TextField
                label={t("wizard.idp.usernameFormat")}
                value={idp.ad.usernameFormat}
                onChange={(usernameFormat) => ad({ usernameFormat })}
              />
              <TextField
                label={t("wizard.idp.groupSearchBaseDn")}
                value={idp.ad.groupSearchBaseDn}
                onChange={(groupSearchBaseDn) => ad({ groupSearchBaseDn })}
              />
              <TextField
                label={t("wizard.idp.groupSearchFilter")}
                value={idp.ad.groupSearchFilter}
                onChange={(groupSearchFilter) => ad({ groupSearchFilter })}
              />
              <TextField
                label={t("wizard.idp.groupNameAttribute")}
                value={idp.ad.groupNameAttribute}
                onChange={(groupNameAttribute) => ad({ groupNameAttribute })}
              />
              <TextField
                label={t("wizard.idp.lookupBindDn")}
                value={idp.ad.lookupBindDn}
                onChange={(lookupBindDn) => ad({ lookupBindDn })}
              />
              <TextField
                label={t("wizard.idp.lookupBindPassword")}
                type="password"
                value={idp.ad.lookupBindPassword}
                onChange={(lookupBindPassword) => ad({ lookupBindPassword })}
              />
              <TextField
                label={t("wizard.idp.userDnSearchBaseDn")}
                value={idp.ad.userDnSearchBaseDn}
                onChange={(userDnSearchBaseDn) => ad({ userDnSearchBaseDn })}
              />
              <TextField
                label={t("wizard.idp.userDnSearchFilter")}
                value={idp.ad.userDnSearchFilter}
                onChange={(userDnSearchFilter) => ad({ userDnSearchFilter })}
              />
            </div>
            <div className="text-sm font-bold mb-1">
              {t("wizard.idp.userDnsTitle")}
            </div>
            {idp.ad.userDns.map((dn, i) => (
              <div key={i} className="flex gap-2 items-start">
                <div className="flex-1">
                  <TextField
                    label={t("wizard.idp.userDnN", { n: i + 1 })}
                    value={dn}
                    onChange={(v) => ad({ userDns: idp.ad.userDns.map((d, j) => (j === i ? v : d)) })}
                    error={errors[`userDn${i}`]}
                  />
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-ghost mt-7"
                  aria-label={t("wizard.idp.removeUserDn", { n: i + 1 })}
                  disabled={idp.ad.userDns.length === 1}
                  onClick={() => ad({ userDns: idp.ad.userDns.filter((_, j) => j !== i) })}
                >
                  −
                </button>
              </div>
            ))}
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => ad({ userDns: [...idp.ad.userDns, ""] })}
            >
              {t("wizard.idp.addUserDn")}
            </button>
          </div>
        )
        : null}
    </div>
  );
}
