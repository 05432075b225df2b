// html-to-text 10 ships no types: what server/mail/templates.ts uses of it.
declare module 'html-to-text' {
  interface SelectorDefinition {
    selector: string;
    format?: string;
    options?: Record<string, unknown>;
  }
  export function compile(options?: { wordwrap?: number | false; selectors?: SelectorDefinition[] }): (html: string) => string;
}
