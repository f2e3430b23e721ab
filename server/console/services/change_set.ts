/**
 * A change made of several storage calls that must land whole: each step is applied in order with the call
 * that undoes it; if a step fails, the steps already applied are undone (latest first) and the error says
 * which step failed. Input is validated before the first step, so a failure here means the storage server
 * refused or changed meanwhile, not that the request was wrong.
 *
 *   const change = new ChangeSet(t("iam.change.userNotCreated"));
 *   await change.apply(t("iam.change.creatingUser"), () => iam.addUser(…), () => iam.removeUser(…));
 */
import { t } from "../../../islands/lib/i18n/t.ts";
import { ApiError, toApiError } from "../http/errors.ts";

export class ChangeSet {
  private readonly undos: { step: string; undo: () => Promise<unknown> }[] = [];

  /** `outcome` opens the error message when a step fails, e.g. "the user was not created" (in the request's language). */
  constructor(private readonly outcome: string) {}

  async apply(step: string, run: () => Promise<unknown>, undo?: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (error) {
      throw await this.rollBack(step, error);
    }
    if (undo) this.undos.push({ step, undo });
  }

  private async rollBack(failedStep: string, cause: unknown): Promise<ApiError> {
    const leftOver: string[] = [];
    for (const { step, undo } of this.undos.reverse()) {
      try {
        await undo();
      } catch (error) {
        leftOver.push(
          t("common.change.undoFailed", { step, reason: toApiError(error).detail || String(error) }),
        );
      }
    }
    const failure = toApiError(cause);
    const detail = [failure.detail || failure.message, ...leftOver].join("\n");
    return new ApiError(
      failure.status,
      t("common.change.failed", { outcome: this.outcome, step: failedStep }),
      {
        detail,
      },
    );
  }
}
