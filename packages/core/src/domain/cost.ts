// Event cost (behaviour reference: "Cost"): the strings a client sends are stored as given, with a
// currency symbol and position inferred from them; the display cost and the numeric values
// are derived when the event is rendered.
import { escapeHtml } from './text';
import { sanitizeSlug } from './slug';

export type CurrencyPosition = '' | 'prefix' | 'postfix';

/** The site's currency settings, used when an event stores none. */
export interface CurrencyDefaults {
  /** @default '$' */
  readonly symbol: string;
  /** @default 'prefix' */
  readonly position: 'prefix' | 'postfix';
  /** ISO 4217 code for JSON-LD offers. @default 'USD' */
  readonly code: string;
}

export const DEFAULT_CURRENCY: CurrencyDefaults = { symbol: '$', position: 'prefix', code: 'USD' };

export interface ParsedCost {
  readonly cost: readonly string[];
  readonly symbol: string;
  readonly position: CurrencyPosition;
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: CurrencyPosition;
  values: string[];
}

/** The stored form of a cost sent by a client: the strings, and the symbol written with the numbers. */
export function parseCostInput(input: string | readonly string[]): ParsedCost {
  const cost = (typeof input === 'string' ? [input] : [...input]).map((s) => s.trim()).filter((s) => s !== '');
  for (const s of cost) {
    const symbol = inferSymbol(s);
    if (symbol) return { cost, ...symbol };
  }
  return { cost, symbol: '', position: '' };
}

/** Every number in the costs (normalised, as strings, sorted numerically); texts without digits as slugs. */
export function costValues(cost: readonly string[]): string[] {
  const numbers: string[] = [];
  const words: string[] = [];
  for (const s of cost) {
    const found = [...s.matchAll(NUMBER)].map((m) => normaliseNumber(m[0]));
    if (found.length > 0) numbers.push(...found);
    else {
      const slug = sanitizeSlug(s);
      if (slug) words.push(slug);
    }
  }
  const unique = [...new Set(numbers)].sort((a, b) => Number(a) - Number(b));
  return [...unique, ...new Set(words)];
}

/**
 * The display cost: "Free" for 0, the currency symbol placed around numbers, a range as
 * "<min> – <max>"; the text as given when the cost has no numbers. HTML-escaped.
 */
export function displayCost(
  cost: readonly string[], symbol: string, position: CurrencyPosition, defaults: CurrencyDefaults,
  values: readonly string[] = costValues(cost),
): string {
  const numeric = values.filter((x) => /^\d/.test(x));
  if (numeric.length === 0) return escapeHtml(cost.join(', '));
  const sym = symbol || defaults.symbol;
  const pos = position || defaults.position;
  const show = (n: string) => (Number(n) === 0 ? 'Free' : pos === 'prefix' ? `${sym}${n}` : `${n}${sym}`);
  const min = numeric[0]!;
  const max = numeric[numeric.length - 1]!;
  return escapeHtml(min === max ? show(min) : `${show(min)} \u2013 ${show(max)}`);
}

export function costDetails(
  cost: readonly string[], symbol: string, position: CurrencyPosition, code: string, values: readonly string[] = costValues(cost),
): CostDetails {
  return { currency_symbol: symbol, currency_code: code, currency_position: position, values: [...values] };
}

// ---- helpers ----

const NUMBER = /\d[\d.,]*\d|\d/g;

/** A number token with thousands separators dropped and "." as the decimal separator. */
function normaliseNumber(token: string): string {
  const lastDot = token.lastIndexOf('.');
  const lastComma = token.lastIndexOf(',');
  let decimal: string | undefined;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastComma >= 0) decimal = /^\d{1,3}(,\d{3})+$/.test(token) ? undefined : ',';
  else if (lastDot >= 0) decimal = /^\d{1,3}(\.\d{3}){2,}$/.test(token) ? undefined : '.';
  const thousands = decimal === '.' ? ',' : decimal === ',' ? '.' : token.includes(',') ? ',' : '.';
  let s = token.split(thousands).join('');
  if (decimal === ',') s = s.replace(',', '.');
  return s.replace(/^0+(?=\d)/, '');
}

/** The symbol written before the first number or after the last one ("$10", "20 €", "USD 5"). */
function inferSymbol(s: string): { symbol: string; position: 'prefix' | 'postfix' } | undefined {
  const parts = s.split(/(\d[\d.,]*\d|\d)/);
  if (parts.length < 3) return undefined;
  const clean = (t: string) => t.replace(/\bfree\b/gi, '').replace(/[\s\-\u2013\u2014/~:]+|\bto\b/gi, '').trim();
  const before = clean(parts[0]!);
  const after = clean(parts[parts.length - 1]!);
  if (before && before.length <= 4) return { symbol: before, position: 'prefix' };
  if (after && after.length <= 4) return { symbol: after, position: 'postfix' };
  return undefined;
}
