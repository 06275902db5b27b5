import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../bench/lib/load.js';
import { p99Text, pointRatio, ratioText } from '../../bench/lib/sweepRatio.js';

const side = (requests: number, seconds: number, p99 = 12.34): LoadResult => ({
  requests,
  seconds,
  rps: requests / seconds,
  p50: p99 / 2,
  p99: requests === 0 ? NaN : p99,
  errors: 0,
});

const point = (api: LoadResult, plain: LoadResult) => ({
  api,
  plain,
  ratio: pointRatio(api, plain),
});

describe('the sweep report: API/plain at a point', () => {
  it('is the ratio of the two rates when both sides answered', () => {
    const p = point(side(300, 3), side(50, 5));
    expect(p.ratio).toBe(10);
    expect(ratioText(p)).toBe('10.00');
  });

  it('is a lower bound, not infinity, when the twin answered nothing in its longest point', () => {
    const p = point(side(60, 3), side(0, 60));
    // the twin ran below one request a minute: the API's 20/s is at least 1,200 times that
    expect(p.ratio).toBe(1200);
    expect(ratioText(p)).toBe('> 1200.00');
    expect(p99Text(p.plain, 0)).toBe('—');
    expect(p99Text(p.api, 1)).toBe('12.3');
  });

  it('is an upper bound when the service answered nothing', () => {
    const p = point(side(0, 60), side(30, 3));
    expect(ratioText(p)).toBe(`< ${(1 / 60 / 10).toFixed(2)}`);
    expect(p.ratio).toBeLessThan(1);
  });

  it('says so when neither side answered', () => {
    expect(ratioText(point(side(0, 60), side(0, 60)))).toBe('none answered');
  });
});
