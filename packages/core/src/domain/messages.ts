// Texts a client can read. Every one is written `msg('English template', values)`: the
// template is the key under which @evcal/http's catalogues hold its translations (gettext
// style: the English text is the key), and `{name}` placeholders are filled from `values`.
// A test extracts every `msg('…')` of the packages and checks each catalogue has it, so the
// template must be a string literal. Texts that are not ours to translate (an app's own
// message, an operator-facing dataset report) are `verbatim`.

export type MessageValues = Readonly<Record<string, string | number>>;

/** A text for a client: an English template and the values of its placeholders. */
export interface Message {
  readonly template: string;
  readonly values: MessageValues;
  /** False for `verbatim` texts, which no catalogue translates. */
  readonly translatable: boolean;
}

/** A translatable text. The template must be a string literal (it is extracted for the catalogues). */
export function msg(template: string, values: MessageValues = {}): Message {
  return { template, values, translatable: true };
}

/** A text shown as given, in every language. */
export function verbatim(text: string): Message {
  return { template: text, values: {}, translatable: false };
}

/** Fills `{name}` placeholders of a template; unknown names stay as written. */
export function formatMessage(template: string, values: MessageValues): string {
  return template.replace(/\{([a-z_]+)\}/gi, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The placeholder names of a template, sorted: translations must use exactly these. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/gi)].map((m) => m[1]!).sort();
}

/** A message in English. */
export function english(message: Message): string {
  return formatMessage(message.template, message.values);
}
