// PHP's parsing of query strings and form bodies (behaviour reference: "Request pipeline"): `a[]=1&a[]=2` and
// `a[0]=1` are lists, `a[x]=1` is an object, a repeated plain key keeps its last value.
// Nesting and the number of variables are bounded, as PHP's max_input_nesting_level and
// max_input_vars bound them.

export type PhpValue = string | PhpValue[] | { [key: string]: PhpValue };

export interface PhpParseLimits {
  /** Bracket levels kept; deeper variables are ignored. @default 8 */
  readonly maxDepth?: number;
  /** Variables kept; later ones are ignored. @default 1000 */
  readonly maxVars?: number;
}

/** Parses decoded key/value pairs the way PHP fills `$_GET` and `$_POST`. */
export function parsePhpParams(pairs: Iterable<readonly [string, string]>, limits: PhpParseLimits = {}): Record<string, PhpValue> {
  const maxDepth = limits.maxDepth ?? 8;
  const maxVars = limits.maxVars ?? 1000;
  const root: Record<string, unknown> = Object.create(null);
  let count = 0;
  for (const [rawKey, value] of pairs) {
    if (++count > maxVars) break;
    const path = splitKey(rawKey);
    if (!path) continue;
    // Too deep: PHP drops the whole top-level variable, not just this pair.
    if (path.length - 1 > maxDepth) {
      delete root[path[0]!];
      continue;
    }
    assign(root, path, value);
  }
  return normalise(root) as Record<string, PhpValue>;
}

/**
 * A variable name as PHP's `php_register_variable_ex` reads it: leading blanks skipped; in
 * the base name `.` and ` ` become `_`; `a[b][]` -> ['a', 'b', '']; an unclosed first bracket
 * becomes `_` with the rest kept literally (`a[b` -> `a_b`); anything after a later unclosed
 * bracket, or after the last closing one, is ignored; an empty base name drops the variable.
 */
function splitKey(key: string): string[] | undefined {
  const name = key.replace(/^ +/, '');
  const open = name.indexOf('[');
  const base = (open < 0 ? name : name.slice(0, open)).replace(/[ .]/g, '_');
  if (base === '') return undefined;
  if (open < 0) return [base];
  const segments: string[] = [base];
  const re = /\[([^\]]*)\]/gy;
  re.lastIndex = open;
  let m: RegExpExecArray | null;
  while ((m = re.exec(name)) !== null) segments.push(m[1]!);
  return segments.length > 1 ? segments : [`${base}_${name.slice(open + 1)}`];
}

const APPEND = Symbol('append-index');

function assign(target: Record<string, unknown>, path: string[], value: string): void {
  let node = target;
  for (let i = 0; i < path.length; i++) {
    let key = path[i]!;
    if (key === '' && i > 0) {
      const n = ((node as Record<symbol, number>)[APPEND] ?? nextIndex(node));
      (node as Record<symbol, number>)[APPEND] = n + 1;
      key = String(n);
    }
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const child = node[key];
    if (child === null || typeof child !== 'object') node[key] = Object.create(null);
    node = node[key] as Record<string, unknown>;
  }
}

function nextIndex(node: Record<string, unknown>): number {
  let max = -1;
  for (const k of Object.keys(node)) if (/^\d+$/.test(k)) max = Math.max(max, Number(k));
  return max + 1;
}

/** Objects whose keys are all whole numbers become lists ordered by key, as PHP arrays iterate. */
function normalise(value: unknown): PhpValue {
  if (typeof value === 'string') return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => normalise(obj[k]));
  }
  const out: Record<string, PhpValue> = {};
  for (const k of keys) out[k] = normalise(obj[k]);
  return out;
}
