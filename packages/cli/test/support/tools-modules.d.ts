// Types of the structured-data tools the tests use (they ship JavaScript alone).
declare module '@adobe/structured-data-validator' {
  type HandlerModule = () => Promise<{ default: unknown }>;
  export default class Validator {
    constructor(schemaOrgJson?: unknown);
    registeredHandlers: Record<string, HandlerModule[] | undefined>;
    validate(data: unknown): Promise<unknown[]>;
  }
}

declare module '@adobe/structured-data-validator/src/types/base.js' {
  type Condition = (data: Record<string, unknown>) => unknown;
  export default class BaseValidator {
    constructor(options: { dataFormat: string; path: readonly unknown[] });
    readonly path: readonly { readonly type?: string; readonly property?: string }[];
    getConditions(data?: unknown): Condition[];
    required(name: string, type?: string, ...options: unknown[]): Condition;
    recommended(name: string, type?: string, ...options: unknown[]): Condition;
    or(...conditions: Condition[]): Condition;
    inType(type: string): boolean;
    inProperty(property: string): boolean;
  }
}

declare module '@marbec/web-auto-extractor' {
  export default class WebAutoExtractor {
    constructor(options?: { addLocation?: boolean; embedSource?: readonly string[] });
    parse(html: string): unknown;
  }
}
