/**
 * Identity Provider page (advanced; spec 3 §2.3, §5): built-in key pairs (randomize, at least one pair),
 * OpenID, or Active Directory with its unencrypted-traffic warning.
 */
import { randomKey } from "../../server/lib/contract/operator_rules.ts";
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
      <h2 className="text-lg font-bold mb-1">Identity Provider</h2>
      <p className="text-sm text-base-content/70 mb-4">
        Access to the tenant can be controlled via an external Identity Manager.
      </p>
      <RadioGroup
        label="Protocol"
        value={idp.kind}
        onChange={(kind) => patch("idp", { kind })}
        options={[{ value: "builtin", label: "Built-in" }, { value: "openid", label: "OpenID" }, {
          value: "ad",
          label: "Active Directory",
        }]}
      />
      {idp.kind === "builtin"
        ? (
          <div>
            <p className="text-sm mb-2">Create additional users</p>
            {idp.keys.map((pair, i) => (
              <div key={i} className="flex flex-wrap items-start gap-2">
                <div className="flex-1 min-w-48">
                  <TextField
                    label={`Access Key ${i + 1}`}
                    value={pair.accessKey}
                    onChange={(accessKey) =>
                      setKeys(idp.keys.map((k, j) => (j === i ? { ...k, accessKey } : k)))}
                    error={errors[`accessKey${i}`]}
                  />
                </div>
                <div className="flex-1 min-w-48">
                  <TextField
                    label={`Secret Key ${i + 1}`}
                    value={pair.secretKey}
                    onChange={(secretKey) =>
                      setKeys(idp.keys.map((k, j) => (j === i ? { ...k, secretKey } : k)))}
                    error={errors[`secretKey${i}`]}
                  />
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-ghost mt-7"
                  aria-label={`Remove key pair ${i + 1}`}
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
                Add User
              </button>
              <button
                type="button"
                className="btn btn-sm"
                onClick={() =>
                  setKeys(idp.keys.map(() => ({ accessKey: randomKey(16), secretKey: randomKey(32) })))}
              >
                Randomize
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
              label="Configuration URL"
              value={idp.openid.configurationUrl}
              onChange={(configurationUrl) => openid({ configurationUrl })}
              error={errors.configurationUrl}
            />
            <TextField
              label="Client ID"
              value={idp.openid.clientId}
              onChange={(clientId) => openid({ clientId })}
              error={errors.clientId}
            />
            <TextField
              label="Secret ID"
              value={idp.openid.secretId}
              onChange={(secretId) => openid({ secretId })}
              error={errors.secretId}
            />
            <TextField
              label="Claim Name"
              value={idp.openid.claimName}
              onChange={(claimName) => openid({ claimName })}
              error={errors.claimName}
            />
            <TextField
              label="Callback URL"
              value={idp.openid.callbackUrl}
              onChange={(callbackUrl) => openid({ callbackUrl })}
            />
            <TextField
              label="Scopes"
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
              label="LDAP Server Address"
              value={idp.ad.url}
              onChange={(url) => ad({ url })}
              error={errors.adUrl}
            />
            <Switch
              label="Skip TLS Verification"
              checked={idp.ad.skipTls}
              onChange={(skipTls) => ad({ skipTls })}
            />
            <Switch
              label="Server Insecure"
              checked={idp.ad.serverInsecure}
              onChange={(serverInsecure) => ad({ serverInsecure })}
            />
            {idp.ad.serverInsecure
              ? (
                <div role="alert" className="alert alert-warning text-sm mb-3">
                  Warning: All traffic with Active Directory will be unencrypted
                </div>
              )
              : null}
            <Switch label="Start TLS" checked={idp.ad.startTls} onChange={(startTls) => ad({ startTls })} />
            <div className="grid sm:grid-cols-2 gap-x-4">
              <TextField
                label="User Search Filter"
                value={idp.ad.usernameSearchFilter}
                onChange={(usernameSearchFilter) => ad({ usernameSearchFilter })}
              />
              <TextField
                label="Username Format"
                value={idp.ad.usernameFormat}
                onChange={(usernameFormat) => ad({ usernameFormat })}
              />
              <TextField
                label="Group Search Base DN"
                value={idp.ad.groupSearchBaseDn}
                onChange={(groupSearchBaseDn) => ad({ groupSearchBaseDn })}
              />
              <TextField
                label="Group Search Filter"
                value={idp.ad.groupSearchFilter}
                onChange={(groupSearchFilter) => ad({ groupSearchFilter })}
              />
              <TextField
                label="Group Name Attribute"
                value={idp.ad.groupNameAttribute}
                onChange={(groupNameAttribute) => ad({ groupNameAttribute })}
              />
              <TextField
                label="Lookup Bind DN"
                value={idp.ad.lookupBindDn}
                onChange={(lookupBindDn) => ad({ lookupBindDn })}
              />
              <TextField
                label="Lookup Bind Password"
                type="password"
                value={idp.ad.lookupBindPassword}
                onChange={(lookupBindPassword) => ad({ lookupBindPassword })}
              />
              <TextField
                label="User DN Search Base DN"
                value={idp.ad.userDnSearchBaseDn}
                onChange={(userDnSearchBaseDn) => ad({ userDnSearchBaseDn })}
              />
              <TextField
                label="User DN Search Filter"
                value={idp.ad.userDnSearchFilter}
                onChange={(userDnSearchFilter) => ad({ userDnSearchFilter })}
              />
            </div>
            <div className="text-sm font-bold mb-1">
              List of user DNs (Distinguished Names) to be added as Tenant Administrators
            </div>
            {idp.ad.userDns.map((dn, i) => (
              <div key={i} className="flex gap-2 items-start">
                <div className="flex-1">
                  <TextField
                    label={`User DN ${i + 1}`}
                    value={dn}
                    onChange={(v) => ad({ userDns: idp.ad.userDns.map((d, j) => (j === i ? v : d)) })}
                    error={errors[`userDn${i}`]}
                  />
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-ghost mt-7"
                  aria-label={`Remove user DN ${i + 1}`}
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
              Add User DN
            </button>
          </div>
        )
        : null}
    </div>
  );
}
