/**
 * The IAM pages (spec 1 Account, Users, User detail, Groups, Policy detail; spec 2 IAM Policies), rendered
 * with their data; each page is one island that hydrates the interactive parts.
 */
import { t } from "../islands/lib/i18n/t.ts";
import { type Context, Hono } from "hono";
import AccountPage from "../islands/AccountPage.tsx";
import GroupsList from "../islands/GroupsList.tsx";
import DirectoryPolicies from "../islands/DirectoryPolicies.tsx";
import type { DirectoryMappings } from "../server/lib/contract/identity.ts";
import { directoryMappings } from "../server/console/services/ldap_policies.ts";
import PoliciesList from "../islands/PoliciesList.tsx";
import PolicyDetail from "../islands/PolicyDetail.tsx";
import UserDetail from "../islands/UserDetail.tsx";
import UsersList from "../islands/UsersList.tsx";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import { listServiceAccounts } from "../server/console/services/account.ts";
import { listGroups } from "../server/console/services/groups.ts";
import { listPolicies } from "../server/console/services/policies.ts";
import { policyDetail } from "../server/console/services/policy_detail.ts";
import { clientFor } from "../server/console/session/clients.ts";
import { userDetail } from "../server/console/services/user_detail.ts";
import { listUsers } from "../server/console/services/users.ts";
import { isPathAllowed } from "../server/console/session/pages.ts";
import { type ApiError, toApiError } from "../server/console/http/errors.ts";
import { PageHeader, UnavailableNote } from "./layout/Shell.tsx";
import { describeFailures, loadAll, viewBanner } from "./page_data.ts";
import { pagesOf, renderInShell } from "./page_context.tsx";

/** A screen's view model, or the failure of the thing the screen is about, named as its banner names it. */
const readView = <V,>(reading: Promise<V>, section: string) =>
  reading.then(
    (view) => ({ view }),
    (e) => ({ error: describeFailures([{ section, error: toApiError(e) }])! }),
  );

const policyNames = async (client: Parameters<typeof listPolicies>[0]) =>
  (await listPolicies(client)).policies.map((p) => p.name);
const groupNames = async (client: Parameters<typeof listGroups>[0]) => (await listGroups(client)).groups;

const NO_DIRECTORY: DirectoryMappings = { enabled: false, users: [], groups: [] };

/**
 * The directory (LDAP) section of /users and /groups, with the policy names its form offers, read only when
 * there is a directory. The lists' own dialogs read their groups, policies and users when they open.
 */
interface DirectorySection {
  mappings: DirectoryMappings;
  policies: string[];
}
const NO_DIRECTORY_SECTION: DirectorySection = { mappings: NO_DIRECTORY, policies: [] };
const directorySection = async (
  client: Parameters<typeof directoryMappings>[0],
): Promise<DirectorySection> => {
  const mappings = await directoryMappings(client);
  return { mappings, policies: mappings.enabled ? await policyNames(client) : [] };
};

export function iamPages(deps: AppDeps) {
  const base = deps.render.href("/");
  /** The page of one thing that could not be read: "does not exist" only when the storage says so. */
  const unavailable = (c: Context<AppEnv>, title: string, what: string, error: ApiError) =>
    error.status === 404
      ? renderInShell(deps, c, {
        title,
        status: 404,
        body: (
          <>
            <PageHeader title={title} />
            <p>{t("iam.page.notFound", { what })}</p>
          </>
        ),
      })
      : renderInShell(deps, c, {
        title,
        status: error.status === 403 ? 403 : undefined,
        error,
        body: (
          <>
            <PageHeader title={title} />
            <UnavailableNote what={what} error={error} />
          </>
        ),
      });

  return new Hono<AppEnv>()
    .get("/account", async (c) => {
      const session = c.get("session")!;
      const { data, error, failed } = await loadAll<{ keys: string[] }>(deps, session, {
        keys: [(client) => listServiceAccounts(client), [], t("iam.word.serviceAccounts")],
      });
      return renderInShell(deps, c, {
        title: t("iam.word.serviceAccounts"),
        error,
        body: (
          <>
            <PageHeader title={t("iam.word.serviceAccounts")} />
            <Island
              name="AccountPage"
              component={AccountPage}
              props={{
                serviceAccounts: data.keys,
                unavailable: failed.keys,
                changePassword: !session.sso && !!session.account,
                idp: session.sso,
              }}
            />
          </>
        ),
      });
    })
    .get("/users", async (c) => {
      const session = c.get("session")!;
      const { data, error, failed } = await loadAll<
        { users: Awaited<ReturnType<typeof listUsers>>; directory: DirectorySection }
      >(deps, session, {
        users: [(client) => listUsers(client), [], t("iam.word.users")],
        directory: [directorySection, NO_DIRECTORY_SECTION, t("iam.page.directoryUsers")],
      });
      return renderInShell(deps, c, {
        title: t("iam.word.users"),
        error,
        body: (
          <>
            <PageHeader title={t("iam.word.users")} />
            <Island
              name="UsersList"
              component={UsersList}
              props={{
                users: data.users,
                unavailable: failed.users,
                signedInAs: session.account,
                base,
              }}
            />
            {data.directory.mappings.enabled
              ? (
                <Island
                  name="DirectoryPolicies"
                  component={DirectoryPolicies}
                  props={{
                    kind: "user",
                    mappings: data.directory.mappings.users,
                    policies: data.directory.policies,
                  }}
                />
              )
              : null}
          </>
        ),
      });
    })
    .get("/users/:name{.+}", async (c) => {
      const session = c.get("session")!;
      const name = c.req.param("name");
      const read = await readView(userDetail(clientFor(deps, session), name), t("iam.user.title"));
      if ("error" in read) {
        return unavailable(c, t("iam.user.title"), t("iam.user.titleNamed", { name }), read.error);
      }
      return renderInShell(deps, c, {
        title: t("iam.user.titleNamed", { name }),
        error: viewBanner(read.view.failures),
        body: (
          <Island
            name="UserDetail"
            component={UserDetail}
            props={{ initial: read.view, signedInAs: session.account, base }}
          />
        ),
      });
    })
    .get("/groups", async (c) => {
      const session = c.get("session")!;
      const { data, error, failed } = await loadAll<
        { groups: string[]; directory: DirectorySection }
      >(deps, session, {
        groups: [groupNames, [], t("iam.word.groups")],
        directory: [directorySection, NO_DIRECTORY_SECTION, t("iam.page.directoryGroups")],
      });
      return renderInShell(deps, c, {
        title: t("iam.groups.title"),
        error,
        body: (
          <>
            <PageHeader title={t("iam.groups.title")} />
            <Island
              name="GroupsList"
              component={GroupsList}
              props={{
                groups: data.groups,
                unavailable: failed.groups,
              }}
            />
            {data.directory.mappings.enabled
              ? (
                <Island
                  name="DirectoryPolicies"
                  component={DirectoryPolicies}
                  props={{
                    kind: "group",
                    mappings: data.directory.mappings.groups,
                    policies: data.directory.policies,
                  }}
                />
              )
              : null}
          </>
        ),
      });
    })
    .get("/policies", async (c) => {
      const { data, error, failed } = await loadAll<{ policies: string[] }>(deps, c.get("session")!, {
        policies: [policyNames, [], t("iam.word.policies")],
      });
      return renderInShell(deps, c, {
        title: t("iam.policies.title"),
        error,
        body: (
          <>
            <PageHeader title={t("iam.policies.title")} />
            <Island
              name="PoliciesList"
              component={PoliciesList}
              props={{ policies: data.policies, unavailable: failed.policies, base }}
            />
          </>
        ),
      });
    })
    .get("/policies/:name{.+}", async (c) => {
      const name = c.req.param("name");
      const read = await readView(
        policyDetail(clientFor(deps, c.get("session")!), name),
        t("iam.word.policy"),
      );
      if ("error" in read) {
        return unavailable(c, t("iam.word.policy"), t("iam.policy.titleNamed", { name }), read.error);
      }
      return renderInShell(deps, c, {
        title: t("iam.policy.titleNamed", { name }),
        error: viewBanner(read.view.failures),
        body: (
          <>
            <nav className="breadcrumbs text-sm mb-2" aria-label={t("iam.word.breadcrumb")}>
              <ul>
                <li>
                  <a href={`${base}policies`}>{t("iam.policies.title")}</a>
                </li>
                <li className="wrap-anywhere" translate="no">{name}</li>
              </ul>
            </nav>
            <Island
              name="PolicyDetail"
              component={PolicyDetail}
              props={{ initial: read.view, canViewUsers: isPathAllowed(pagesOf(c), "/users"), base }}
            />
          </>
        ),
      });
    });
}
