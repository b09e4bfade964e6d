// PHP's parsing of query strings and form bodies (behaviour.md §0): `a[]=1&a[]=2` and
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
    if (!path || path.length - 1 > maxDepth) continue;
    assign(root, path, value);
  }
  return normalise(root) as Record<string, PhpValue>;
}

/** `a[b][]` -> ['a', 'b', '']; a key without a well-formed bracket part is taken whole. */
function splitKey(key: string): string[] | undefined {
  const open = key.indexOf('[');
  if (open <= 0) return key === '' ? undefined : [key];
  const base = key.slice(0, open);
  const segments: string[] = [base];
  const rest = key.slice(open);
  const re = /\[([^\]]*)\]/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(rest)) !== null) {
    segments.push(m[1]!);
    end = re.lastIndex;
  }
  // PHP ignores anything after the last closing bracket; an unclosed first bracket makes the key literal.
  return end === 0 ? [key] : segments;
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
