// Event cost (behaviour.md §1.2.1): the display cost and cost_details derived from the cost
// strings a client sends, with the currency symbol and position inferred from them.
import { describe, expect, it } from 'vitest';
import { admin, as, eventInput, makeCalendar, type Json } from './helpers';

interface Expected {
  readonly cost: string;
  readonly values: string[];
  readonly symbol: string;
  readonly position: '' | 'prefix' | 'postfix';
}

async function eventWithCost(cost: unknown, options: Parameters<typeof makeCalendar>[0] = {}): Promise<Json> {
  return (await makeCalendar(options).events.create(eventInput({ cost }), as(admin))).value;
}

describe('cost and cost_details (§1.2.1)', () => {
  // input -> display cost, values, stored symbol and position (site default: "$", prefix).
  it.each<[string, unknown, Expected]>([
    ['postfix symbol', '20$', { cost: '20$', values: ['20'], symbol: '$', position: 'postfix' }],
    ['prefix symbol', '$23', { cost: '$23', values: ['23'], symbol: '$', position: 'prefix' }],
    ['prefix euro', '€15', { cost: '€15', values: ['15'], symbol: '€', position: 'prefix' }],
    ['postfix euro with a space', '15 €', { cost: '15€', values: ['15'], symbol: '€', position: 'postfix' }],
    ['no symbol', '20', { cost: '$20', values: ['20'], symbol: '', position: '' }],
    ['decimals', '$12.50', { cost: '$12.50', values: ['12.50'], symbol: '$', position: 'prefix' }],
    ['a range', '10 - 20', { cost: '$10 – $20', values: ['10', '20'], symbol: '', position: '' }],
    ['a range with symbols', '$10 - $20', { cost: '$10 – $20', values: ['10', '20'], symbol: '$', position: 'prefix' }],
    ['a list of strings', ['0$', '20$', '30$'], { cost: 'Free – 30$', values: ['0', '20', '30'], symbol: '$', position: 'postfix' }],
    ['a list, sorted numerically', ['100$', '20$', '3$'], { cost: '3$ – 100$', values: ['3', '20', '100'], symbol: '$', position: 'postfix' }],
    ['a list with the same value twice', ['$5', '$5'], { cost: '$5', values: ['5'], symbol: '$', position: 'prefix' }],
    ['zero', '0', { cost: 'Free', values: ['0'], symbol: '', position: '' }],
    ['the number 0', 0, { cost: 'Free', values: ['0'], symbol: '', position: '' }],
    ['a number', 35, { cost: '$35', values: ['35'], symbol: '', position: '' }],
    ['zero with a symbol', '$0', { cost: 'Free', values: ['0'], symbol: '$', position: 'prefix' }],
    ['a range from zero', '0 - 25', { cost: 'Free – $25', values: ['0', '25'], symbol: '', position: '' }],
    ['Free', 'Free', { cost: 'Free', values: ['free'], symbol: '', position: '' }],
    ['thousands separator', '$1,500', { cost: '$1500', values: ['1500'], symbol: '$', position: 'prefix' }],
    ['thousands and decimals', '$1,234.56', { cost: '$1234.56', values: ['1234.56'], symbol: '$', position: 'prefix' }],
    ['European separators', '1.234,50 €', { cost: '1234.50€', values: ['1234.50'], symbol: '€', position: 'postfix' }],
    ['no digits', 'Donation', { cost: 'Donation', values: ['donation'], symbol: '', position: '' }],
    ['no digits, several words', 'Pay what you want', { cost: 'Pay what you want', values: ['pay-what-you-want'], symbol: '', position: '' }],
    ['no digits, HTML-escaped', 'Drinks & snacks', { cost: 'Drinks &amp; snacks', values: ['drinks-snacks'], symbol: '', position: '' }],
    ['empty', '', { cost: '', values: [], symbol: '', position: '' }],
  ])('%s: %j', async (_name, input, expected) => {
    const event = await eventWithCost(input);
    expect(event.cost).toBe(expected.cost);
    expect(event.cost_details).toStrictEqual({
      currency_symbol: expected.symbol,
      currency_code: '',
      currency_position: expected.position,
      values: expected.values,
    });
  });

  it('no cost at all gives "" and empty details', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    expect(event.cost).toBe('');
    expect(event.cost_details).toStrictEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: [] });
  });

  it('cost_details keys are in the reference order', async () => {
    const event = await eventWithCost('$15');
    expect(Object.keys(event.cost_details as Json)).toEqual(['currency_symbol', 'currency_code', 'currency_position', 'values']);
  });

  // Without a stored symbol or position the site settings apply.
  it.each<[string, unknown, Json, string]>([
    ['site symbol postfix', '20', { currency: { symbol: '€', position: 'postfix' } }, '20€'],
    ['site symbol prefix', '20 - 30', { currency: { symbol: '£', position: 'prefix' } }, '£20 – £30'],
    ['stored symbol wins over the site symbol', '20 kr', { currency: { symbol: '€', position: 'prefix' } }, '20kr'],
  ])('%s', async (_name, input, options, cost) => {
    const event = await eventWithCost(input, options);
    expect(event.cost).toBe(cost);
  });

  // The cost survives a round trip through storage and a single read.
  it('a single GET shows the same cost and offers it in json_ld', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput({ cost: ['0€', '20€'] }), as(admin))).value;
    const read = (await calendar.events.get({ id: event.id }, as(admin))).value;
    expect(read.cost).toBe('Free – 20€');
    expect(read.cost_details).toStrictEqual(event.cost_details);
    expect((read.json_ld as Json).offers).toMatchObject({ '@type': 'Offer', price: '0' });
  });

  it('an event without a cost has no offers in json_ld', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    expect((await calendar.events.get({ id: event.id }, as(admin))).value.json_ld).not.toHaveProperty('offers');
  });
});
