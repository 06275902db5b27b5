import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { errors, fromDomainError } from '../../src/http/httpErrors.js';
import { domainErrors, ValidationError } from '../../src/shared/domainErrors.js';
import { expectsJson } from '../../src/http/expectsJson.js';

describe('error catalog: exactly the documented bodies (the error rules)', () => {
  it('401 is {"error":"unauthorized"} and nothing else', () => {
    const e = errors.unauthorized();
    expect([e.status, JSON.stringify(e.body)]).toEqual([401, '{"error":"unauthorized"}']);
  });

  it('402 carries code pro_required', () => {
    const e = errors.proRequired();
    expect(e.status).toBe(402);
    expect(e.body).toEqual({ error: expect.any(String), code: 'pro_required' });
  });

  it('403 for a blocked account has an error', () => {
    const e = errors.accountBlocked();
    expect(e.status).toBe(403);
    expect(e.body.error).toEqual(expect.any(String));
  });

  it('404 for lists and records names the parameter in errors (getListSchema, 4.9)', () => {
    expect(fromDomainError(domainErrors.listNotFound()).body).toEqual({
      message: 'List not found.',
      error: 'not_found',
      errors: { schema_id: ['List not found.'] },
    });
    expect(fromDomainError(domainErrors.itemNotFound()).body.errors).toEqual({
      item_id: ['List item not found.'],
    });
  });

  it('410 carries code method_removed (the versioning rules)', () => {
    const e = errors.methodRemoved('getMe');
    expect(e.status).toBe(410);
    expect(e.body).toEqual({ error: expect.stringContaining('getMe'), code: 'method_removed' });
  });

  it('429 is {"message":"Too Many Attempts."} with Retry-After and zero remaining', () => {
    const e = errors.tooManyAttempts(17, 120);
    expect(JSON.stringify(e.body)).toBe('{"message":"Too Many Attempts."}');
    expect(e.headers).toEqual({
      'retry-after': '17',
      'x-ratelimit-limit': '120',
      'x-ratelimit-remaining': '0',
    });
  });

  it('500 carries only the error code and the request id', () => {
    expect(errors.serverError('req-1').body).toEqual({
      error: 'server_error',
      request_id: 'req-1',
    });
  });

  it('503 tells the client when to retry', () => {
    const e = errors.unavailable();
    expect(e.status).toBe(503);
    expect(Number(e.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not echo an unbounded method name back', () => {
    const message = String(errors.methodNotFound('x'.repeat(5000)).body.message);
    expect(message.length).toBeLessThan(100);
  });
});

describe('422 (the error rules: {message, errors}, every failing field)', () => {
  it('summarises one error as its text', () => {
    const raised = domainErrors.invalid('fields.0.slug', 'The slug has already been taken.');
    expect(raised).toBeInstanceOf(ValidationError);
    const e = fromDomainError(raised);
    expect(e.status).toBe(422);
    expect(e.body).toEqual({
      message: 'The slug has already been taken.',
      errors: { 'fields.0.slug': ['The slug has already been taken.'] },
    });
  });

  it('counts the other errors in the message, singular and plural', () => {
    expect(fromDomainError(domainErrors.validation({ a: ['A.'], b: ['B.'] })).body.message).toBe(
      'A. (and 1 more error)',
    );
    expect(
      fromDomainError(domainErrors.validation({ a: ['A.', 'A2.'], b: ['B.'] })).body.message,
    ).toBe('A. (and 2 more errors)');
  });
});

describe('who expects JSON (decisions)', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

  it.each([
    [{ accept: 'application/json' }, true],
    [{ accept: 'text/html, application/json;q=0.5' }, true],
    [{ accept: 'application/vnd.api+json' }, true],
    [{ 'x-requested-with': 'XMLHttpRequest' }, true],
    [{ accept: 'text/html' }, false],
    [{ accept: '*/*' }, false],
    [{}, false],
    [{ 'x-requested-with': 'fetch' }, false],
  ])('%j → %s', (headers, expected) => {
    expect(expectsJson(request(headers))).toBe(expected);
  });
});
