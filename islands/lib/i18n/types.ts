/** The shapes of a catalogue, shared by the lookup (t.ts) and the catalogue files. */

/** A text, or its plural forms (chosen by the `count` parameter); `other` is the form every language has. */
export type Message = string | PluralMessage;
export type PluralMessage = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
export type Messages = Record<string, Message>;

/**
 * Another language's catalogue for one area: exactly the English keys (a missing or extra key fails the type
 * check), each with a text of its own.
 */
export type Translation<English extends Messages> = { [Key in keyof English]: Message };
