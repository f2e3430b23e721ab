/**
 * Texts with markup inside: a link, a bold name or a code span stay where the language puts them.
 *
 *   tNode("buckets.noAccess", { bucket: <strong>{name}</strong> })
 *   // en "You do not have access to bucket {bucket}." / zh "您无权访问存储桶 {bucket}。"
 */
import { Fragment, type ReactNode } from "react";
import { currentLocale, type MessageKey, messageText } from "./t.ts";

export function tNode(key: MessageKey, values: Record<string, ReactNode>): ReactNode {
  const text = messageText(key, values as Record<string, string | number>);
  const parts = text.split(/\{(\w+)\}/);
  return parts.map((part, index) => {
    if (index % 2 === 0) return part ? <Fragment key={index}>{part}</Fragment> : null;
    const value = values[part];
    if (value === undefined) return `{${part}}`;
    return (
      <Fragment key={index}>
        {typeof value === "number" ? value.toLocaleString(currentLocale()) : value}
      </Fragment>
    );
  });
}
