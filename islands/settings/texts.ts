/**
 * The settings forms' texts: the field definitions (server/lib/contract/settings_*.ts) name their labels,
 * help texts and problems by message key, as plain strings since the contract knows no catalogue; these look
 * them up in the language in force. A problem the console server sent is already in that language and not a
 * key: it is shown as it came.
 */
import type { FieldDef } from "../../server/lib/contract/settings_fields.ts";
import { currentLocale, type MessageKey, type MessageParams, t } from "../lib/i18n/t.ts";

/** The text of a message key the contract names (a text that is no key, shown as it is). */
export const contractText = (key: string, params?: MessageParams): string => t(key as MessageKey, params);

export const fieldLabel = (field: FieldDef): string => contractText(field.label);

export const fieldHelp = (field: FieldDef): string => (field.tooltip ? contractText(field.tooltip) : "");

/**
 * A placeholder naming its field ("Enter {label}"). Chinese puts a space between a Chinese and a Latin word,
 * and the label may start either way ("请输入主机", "请输入 DSN 字符串").
 */
export function withLabel(key: string, label: string): string {
  const text = contractText(key, { label });
  return currentLocale() === "zh-Hans" ? text.replace(/([\u4e00-\u9fff])([A-Za-z0-9])/g, "$1 $2") : text;
}

/** An example value as it is, or the placeholder text. */
export const fieldPlaceholder = (field: FieldDef): string | undefined =>
  field.example ?? (field.placeholder ? withLabel(field.placeholder, fieldLabel(field)) : undefined);

export const optionLabel = (option: { value: string; label?: string }): string =>
  option.label ? contractText(option.label) : option.value;
