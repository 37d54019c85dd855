/**
 * The legacy API server's Lisk Core 3.x route and the toggle rate limit, over real HTTP (fetch)
 * against an in-process server with a stub forging service: 3.x's answers for a success, a
 * refused update, a body that is not JSON, an oversized body; 429 with Retry-After once a client
 * is over its limit, on both toggles; and the limiter's window.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import { type ForgingService, ToggleError } from '../../../src/legacy-api/forging-service.js';
import { RateLimiter, TOO_MANY_REQUESTS_MESSAGE } from '../../../src/legacy-api/rate-limit.js';
import { LegacyApiServer } from '../../../src/legacy-api/server.js';
import type { UpdateForgingRequest } from '../../../src/legacy-api/validation-v3.js';
import { parseWhitelist } from '../../../src/legacy-api/whitelist.js';

const ADDRESS = 'ab'.repeat(20);
const REQUEST = {
  address: ADDRESS,
  password: 'secret password',
  forging: true,
  height: 0,
  maxHeightPreviouslyForged: 0,
  maxHeightPrevoted: 0,
};

describe('legacy API server: PATCH /api/forging and the toggle rate limit', () => {
  let server: LegacyApiServer;
  const updates: UpdateForgingRequest[] = [];

  const stubService = {
    status: () => [],
    toggle: async (publicKey: string, _password: string, forging: boolean) => ({ publicKey, forging }),
    updateForgingStatus: async (request: UpdateForgingRequest) => {
      updates.push(request);
      if (request.password !== REQUEST.password) throw new ToggleError('Invalid password and public key combination');
      return { address: request.address.toLowerCase(), forging: request.forging };
    },
  } as unknown as ForgingService;

  beforeEach(async () => {
    updates.length = 0;
    server = new LegacyApiServer({
      host: '127.0.0.1',
      port: 0,
      service: stubService,
      status: { height: () => 1, tipId: () => '00', syncing: () => false, networkHeight: () => 0, poolSize: () => 0 },
      apiPublic: false,
      apiWhitelist: parseWhitelist(['127.0.0.1']),
      forgingWhitelist: parseWhitelist(['127.0.0.1']),
      rateLimit: { max: 3, windowMs: 60_000 },
      logger: silentLogger,
    });
    await server.start();
  });

  afterEach(() => server.stop());

  const send = async (method: string, path: string, body: string) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
  };

  it('answers a granted update with the request heights, as 3.x did', async () => {
    const answer = await send('PATCH', '/api/forging', JSON.stringify({ ...REQUEST, address: ADDRESS.toUpperCase(), height: 7 }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      meta: { count: 1 },
      data: { address: ADDRESS, forging: true, height: 7, maxHeightPreviouslyForged: 0, maxHeightPrevoted: 0 },
    });
    expect(updates).toHaveLength(1);
  });

  it('relays a refusal as 3.x relayed the forger error (500), and rejects bodies before the service', async () => {
    const refused = await send('PATCH', '/api/forging', JSON.stringify({ ...REQUEST, password: 'wrong' }));
    expect(refused.status).toBe(500);
    expect(refused.body.errors[0].message).toBe('Invalid password and public key combination');
    expect(refused.body.errors[0].response.error).toEqual({
      message: 'Internal error',
      code: -32603,
      data: 'Invalid password and public key combination',
    });
    expect(await send('PATCH', '/api/forging', '{"address":')).toMatchObject({
      status: 400,
      body: { errors: [{ message: 'Request body is not valid JSON' }] },
    });
    expect(await send('PATCH', '/api/forging', JSON.stringify({ ...REQUEST, password: 'x'.repeat(10_000) }))).toMatchObject({
      status: 413,
      body: { errors: [{ message: 'request entity too large' }] },
    });
    expect(updates).toHaveLength(1);
  });

  it('answers 429 with Retry-After once a client is over its limit, on both toggles', async () => {
    const put = JSON.stringify({ publicKey: 'cd'.repeat(32), password: 'secret password', forging: false });
    expect((await send('PUT', '/api/node/status/forging', put)).status).toBe(200);
    expect((await send('PATCH', '/api/forging', JSON.stringify(REQUEST))).status).toBe(200);
    expect((await send('PATCH', '/api/forging', '{')).status).toBe(400);
    const patchOver = await send('PATCH', '/api/forging', JSON.stringify(REQUEST));
    expect(patchOver).toMatchObject({ status: 429, body: { errors: [{ message: TOO_MANY_REQUESTS_MESSAGE }] } });
    expect(Number(patchOver.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(patchOver.retryAfter)).toBeLessThanOrEqual(60);
    expect(await send('PUT', '/api/node/status/forging', put)).toMatchObject({ status: 429, body: { message: TOO_MANY_REQUESTS_MESSAGE } });
    expect(updates).toHaveLength(1);
    // Reading the status is not limited.
    expect((await fetch(`http://127.0.0.1:${server.port}/api/node/status/forging`)).status).toBe(200);
  });
});

describe('RateLimiter', () => {
  it('counts per client within a fixed window, starts again after it, and is off with max 0', () => {
    let now = 1_000;
    const limiter = new RateLimiter({ max: 2, windowMs: 10_000 }, () => now);
    expect([limiter.take('a').allowed, limiter.take('a').allowed, limiter.take('a').allowed]).toEqual([true, true, false]);
    expect(limiter.take('b').allowed).toBe(true);
    now += 4_000;
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 6 });
    now += 6_000;
    expect(limiter.take('a').allowed).toBe(true);
    const off = new RateLimiter({ max: 0, windowMs: 10_000 }, () => now);
    expect(Array.from({ length: 100 }, () => off.take('a').allowed).every(Boolean)).toBe(true);
  });
});
