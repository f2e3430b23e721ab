/**
 * The page shown for a page route that fails or does not exist: '404 Not Found' with the copyright footer
 * (spec 1 §2), or the error's status and message. API routes never get here (they get JSON).
 */
import type { Context } from "hono";
import type { ApiError } from "../http/errors.ts";
import type { PageRenderer } from "./page.tsx";
import { t } from "../../../islands/lib/i18n/t.ts";

export function renderErrorPage(render: PageRenderer, _c: Context, error: ApiError): Response {
  const title = error.status === 404
    ? t("common.errorPage.notFound")
    : t("common.errorPage.status", { status: String(error.status), message: error.message });
  return render({
    title,
    status: error.status,
    body: (
      <main className="min-h-screen flex flex-col items-center justify-center gap-6 bg-base-200 p-8">
        <h1 className="text-3xl font-bold">{title}</h1>
        {error.status !== 404 && error.detail && error.detail !== error.message
          ? <p className="text-base-content/70 max-w-xl text-center">{error.detail}</p>
          : null}
        <a className="btn btn-primary" href={render.href("/")}>{t("common.errorPage.toConsole")}</a>
        <footer className="text-sm text-base-content/60">
          {t("common.errorPage.copyright", { year: String(new Date().getFullYear()) })}
        </footer>
      </main>
    ),
  });
}
