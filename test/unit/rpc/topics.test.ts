import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../../src/errors.js';
import { MAX_TOPICS_PER_SOCKET, MAX_TOPIC_LENGTH, parseTopics, topicsMatch } from '../../../src/rpc/topics.js';

describe('topicsMatch (Lisk semantics: a topic matches an event whose name includes it)', () => {
  it.each([
    [['chain_newBlock'], 'chain_newBlock', true],
    [['chain_newBlock'], 'chain_deleteBlock', false],
    [['chain'], 'chain_newBlock', true],
    [['chain'], 'chain_deleteBlock', true],
    [['chain'], 'network_newBlock', false],
    [['Block'], 'chain_newBlock', true],
    [['Block'], 'network_newBlock', true],
    [['block'], 'chain_newBlock', false],
    [[''], 'anything', true],
    [['app_ready', 'token'], 'token_transfer', true],
    [['app_ready', 'token'], 'app_shutdown', false],
    [['chain_newBlock_extra'], 'chain_newBlock', false],
    [[], 'chain_newBlock', false],
  ])('%j ⟶ %s: %s', (topics, event, expected) => {
    expect(topicsMatch(new Set(topics), event)).toBe(expected);
  });
});

describe('parseTopics', () => {
  it('returns the topics without duplicates, in order', () => {
    expect(parseTopics({ topics: ['b', 'a', 'b', ''] })).toEqual(['b', 'a', '']);
  });

  it.each([
    ['no params', undefined, 'params.topics: must be a non-empty array of event names or prefixes.'],
    ['null params', null, 'params.topics: must be a non-empty array of event names or prefixes.'],
    ['no topics', {}, 'params.topics: must be a non-empty array of event names or prefixes.'],
    ['a string', { topics: 'chain' }, 'params.topics: must be a non-empty array of event names or prefixes.'],
    ['empty', { topics: [] }, 'params.topics: must be a non-empty array of event names or prefixes.'],
    ['a number member', { topics: ['a', 1] }, 'params.topics[1]: must be string.'],
    [
      'too long a topic',
      { topics: ['x'.repeat(MAX_TOPIC_LENGTH + 1)] },
      `params.topics[0]: must NOT have more than ${MAX_TOPIC_LENGTH} characters.`,
    ],
    [
      'too many topics',
      { topics: Array.from({ length: MAX_TOPICS_PER_SOCKET + 1 }, (_, i) => `t${i}`) },
      `params.topics: must not hold more than ${MAX_TOPICS_PER_SOCKET} topics.`,
    ],
  ])('refuses %s with InvalidParamsError', (_name, params, message) => {
    expect(() => parseTopics(params)).toThrow(new InvalidParamsError(message));
  });
});
