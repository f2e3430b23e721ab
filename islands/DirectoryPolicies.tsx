/**
 * Directory (LDAP) users or groups on the Users and Groups pages, when the storage uses a directory: the DNs
 * that have policies mapped, read-only as accounts (the directory owns them, their passwords and their group
 * memberships), and a form to set the policies of a DN (PUT /api/v1/identity/ldap/policies). A user may be
 * given by login name: the storage looks it up to its DN.
 */
import { t } from "./lib/i18n/t.ts";
import { useState } from "react";
import type { DirectoryMapping, DirectoryMappings } from "../server/lib/contract/identity.ts";
import { ErrorBanner } from "./ui/ErrorBanner.tsx";
import { api, ApiClientError } from "./lib/request.ts";

export interface DirectoryPoliciesProps {
  kind: "user" | "group";
  mappings: DirectoryMapping[];
  /** Every policy name, to choose from. */
  policies: string[];
}

export default function DirectoryPolicies({ kind, mappings: initial, policies }: DirectoryPoliciesProps) {
  const [mappings, setMappings] = useState(initial);
  const [entity, setEntity] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<ApiClientError | null>(null);
  const [done, setDone] = useState("");
  const title = kind === "user" ? t("iam.directory.usersTitle") : t("iam.directory.groupsTitle");
  const id = `directory-${kind}`;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    setDone("");
    try {
      await api.put("/api/v1/identity/ldap/policies", { kind, entity: entity.trim(), policies: chosen });
      const fresh = await api.get<DirectoryMappings>("/api/v1/identity/ldap/policies");
      setMappings(kind === "user" ? fresh.users : fresh.groups);
      setDone(t("iam.directory.saved", { name: entity.trim() }));
    } catch (e) {
      setError(
        e instanceof ApiClientError ? e : new ApiClientError(0, t("iam.directory.unreachable"), String(e)),
      );
    } finally {
      setSaving(false);
    }
  }

  const toggle = (name: string) =>
    setChosen((now) => (now.includes(name) ? now.filter((p) => p !== name) : [...now, name]));

  return (
    <section className="card bg-base-100 shadow-sm mt-6" aria-labelledby={id}>
      <div className="card-body gap-4">
        <h2 id={id} className="card-title text-lg">{title}</h2>
        <p className="text-sm text-base-content/80">
          {kind === "user" ? t("iam.directory.usersIntro") : t("iam.directory.groupsIntro")}
        </p>
        {error
          ? <ErrorBanner message={error.message} detail={error.detail} onClose={() => setError(null)} />
          : null}
        {done ? <p role="status" className="text-sm text-success">{done}</p> : null}
        {mappings.length === 0
          ? (
            <p className="text-sm">
              {kind === "user" ? t("iam.directory.noUser") : t("iam.directory.noGroup")}
            </p>
          )
          : (
            <div className="overflow-x-auto">
              <table className="table table-sm">
                <thead>
                  <tr>
                    <th>DN</th>
                    <th>{t("iam.word.policies")}</th>
                    <th>
                      <span className="sr-only">{t("common.word.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {mappings.map((m) => (
                    <tr key={m.dn}>
                      <td className="break-all">{m.dn}</td>
                      <td>{m.policies.join(", ")}</td>
                      <td>
                        <button
                          type="button"
                          className="btn btn-ghost btn-xs"
                          aria-label={t("iam.directory.editPolicies", { dn: m.dn })}
                          onClick={() => {
                            setEntity(m.dn);
                            setChosen(m.policies);
                          }}
                        >
                          {t("common.action.edit")}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        <form className="flex flex-col gap-3" onSubmit={save}>
          <label className="flex flex-col gap-1">
            <span className="text-sm font-bold">
              {kind === "user" ? t("iam.directory.userDn") : t("iam.directory.groupDn")}
            </span>
            <input
              className="input w-full border-base-300"
              name={`${kind}-dn`}
              placeholder={kind === "user"
                ? "uid=jdoe,ou=people,dc=example,dc=com"
                : "cn=team,ou=groups,dc=example,dc=com"}
              value={entity}
              onChange={(e) => setEntity(e.target.value)}
            />
          </label>
          <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
            <legend className="text-sm font-bold mb-1">{t("iam.word.policies")}</legend>
            {policies.map((name) => (
              <label key={name} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={chosen.includes(name)}
                  onChange={() => toggle(name)}
                />
                {name}
              </label>
            ))}
          </fieldset>
          <div>
            <button className="btn btn-primary" type="submit" disabled={saving || !entity.trim()}>
              {saving ? <span className="loading loading-spinner loading-sm" /> : null}
              {t("iam.directory.save")}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
