// PHP's parsing of query strings and form bodies (behaviour reference: "Request pipeline", "Lists
// (CSV vs arrays)"): brackets make lists and objects, a repeated plain key keeps its last value,
// nesting and the number of variables are bounded, and malformed brackets are handled as PHP's
// php_register_variable_ex handles them.
import { describe, expect, it } from 'vitest';
import { parsePhpParams, type PhpParseLimits, type PhpValue } from './php-params';

/** Parses a raw query string (decoded as URLSearchParams decodes it). */
const parse = (query: string, limits?: PhpParseLimits): Record<string, PhpValue> =>
  parsePhpParams(new URLSearchParams(query), limits);

describe('parsePhpParams', () => {
  it.each<[string, string, Record<string, PhpValue>]>([
    ['a plain key', 'a=1', { a: '1' }],
    ['several plain keys', 'a=1&b=2', { a: '1', b: '2' }],
    ['a repeated plain key keeps the last value', 'a=1&a=2&a=3', { a: '3' }],
    ['an empty value is an empty string, not absent', 'a=', { a: '' }],
    ['a[]= appends to a list', 'a[]=1&a[]=2', { a: ['1', '2'] }],
    ['a[0]= is a list', 'a[0]=1', { a: ['1'] }],
    ['explicit indices make a list', 'a[0]=x&a[1]=y', { a: ['x', 'y'] }],
    ['an append after an explicit index takes the next index', 'a[0]=x&a[]=y', { a: ['x', 'y'] }],
    ['a[x]= is an object', 'a[x]=1', { a: { x: '1' } }],
    ['an inline venue, as form clients send it', 'venue[venue]=Hall&venue[city]=Rome', { venue: { venue: 'Hall', city: 'Rome' } }],
    ['a list of inline organizers', 'organizer[0][organizer]=A', { organizer: [{ organizer: 'A' }] }],
    ['two inline organizers by index', 'organizer[0][organizer]=A&organizer[1][organizer]=B&organizer[1][email]=b@example.com',
      { organizer: [{ organizer: 'A' }, { organizer: 'B', email: 'b@example.com' }] }],
    ['appending objects creates one element per append', 'o[][n]=A&o[][n]=B', { o: [{ n: 'A' }, { n: 'B' }] }],
    ['nested appends', 'a[][]=1', { a: [['1']] }],
    ['a string key next to an append keeps an object', 'a[x]=1&a[]=2', { a: { x: '1', 0: '2' } }],
    ['a later bracketed key replaces a plain value', 'a=1&a[]=2', { a: ['2'] }],
    ['a later plain key replaces a list', 'a[]=1&a=2', { a: '2' }],
    ['a repeated bracketed key keeps the last value', 'a[x]=1&a[x]=2', { a: { x: '2' } }],
    ['a status list', 'status[]=publish&status[]=draft', { status: ['publish', 'draft'] }],
    ['percent-encoded brackets are brackets', 'a%5B%5D=1&a%5B%5D=2', { a: ['1', '2'] }],
    ['text after the last closing bracket is ignored', 'a[b]c=1', { a: { b: '1' } }],
    ['a closing bracket without an opening one is part of the name', 'a]=1', { 'a]': '1' }],
  ])('%s: %s', (_name, query, expected) => {
    expect(parse(query)).toEqual(expected);
  });

  it('keeps values as strings, numbers included', () => {
    expect(parse('n=10&l[]=1')).toEqual({ n: '10', l: ['1'] });
  });

  it('accepts any iterable of decoded pairs, such as FormData-like entries', () => {
    expect(parsePhpParams([['venue[venue]', 'Hall'], ['venue[city]', 'Rome'], ['title', 'Gig']]))
      .toEqual({ venue: { venue: 'Hall', city: 'Rome' }, title: 'Gig' });
  });

  it('never lets a key reach the object prototype', () => {
    const out = parse('__proto__[polluted]=1&constructor[prototype][polluted]=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(out).toBeTypeOf('object');
  });

  describe('unclosed and malformed brackets (PHP php_register_variable_ex)', () => {
    it.each<[string, string, Record<string, PhpValue>]>([
      // PHP turns the "[" of an index that never closes into "_": parse_str('a[b=1') gives ['a_b' => '1'].
      ['an unclosed first bracket becomes an underscore', 'a[b=1', { a_b: '1' }],
      ['an unclosed empty first bracket becomes an underscore', 'a[=1', { a_: '1' }],
      // After a complete index, an unclosed one is dropped: parse_str('a[b][c=1') gives ['a' => ['b' => '1']].
      ['an unclosed bracket after a complete index is dropped', 'a[b][c=1', { a: { b: '1' } }],
    ])('%s: %s', (_name, query, expected) => {
      expect(parse(query)).toEqual(expected);
    });

    it.each([
      ['an empty name', '=1'],
      ['a name that starts with a bracket', '[a]=1'],
    ])('ignores a variable with %s (%s), as PHP does', (_name, query) => {
      expect(parse(`${query}&kept=yes`)).toEqual({ kept: 'yes' });
    });
  });

  describe('limits', () => {
    it('keeps variables nested up to maxDepth brackets and ignores deeper ones', () => {
      const limits = { maxDepth: 2 };
      expect(parse('a[b][c]=1', limits)).toEqual({ a: { b: { c: '1' } } });
      expect(parse('d[b][c][e]=1&kept=yes', limits)).toEqual({ kept: 'yes' });
    });

    it('allows 8 bracket levels by default and ignores a 9th', () => {
      const brackets = (n: number) => Array.from({ length: n }, (_, i) => `[k${i}]`).join('');
      const eight = parse(`a${brackets(8)}=1`);
      let node: PhpValue | undefined = eight.a;
      for (let i = 0; i < 8; i++) node = (node as Record<string, PhpValue>)[`k${i}`];
      expect(node).toBe('1');
      expect(parse(`a${brackets(9)}=1&kept=yes`)).toEqual({ kept: 'yes' });
    });

    it('keeps the first maxVars variables and ignores the rest', () => {
      expect(parse('a=1&b=2&c=3&d=4', { maxVars: 2 })).toEqual({ a: '1', b: '2' });
    });

    it('counts every bracketed pair as a variable', () => {
      expect(parse('a[]=1&a[]=2&a[]=3', { maxVars: 2 })).toEqual({ a: ['1', '2'] });
    });

    it('keeps 1000 variables by default and ignores the 1001st', () => {
      const pairs = Array.from({ length: 1001 }, (_, i) => [`v${i}`, String(i)] as const);
      const out = parsePhpParams(pairs);
      expect(Object.keys(out)).toHaveLength(1000);
      expect(out.v999).toBe('999');
      expect(out).not.toHaveProperty('v1000');
    });
  });
});
