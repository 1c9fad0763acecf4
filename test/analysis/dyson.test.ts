import { describe, expect, it } from 'vitest';
import { encodePythonBody, parseStrictJson } from '../../src/core/json.js';
import { type DysonRequest, dysonReference } from '../../src/analysis/dyson.js';

const SAMPLE_PATH: [number, number[]][] = [
  [0.0, [0.0, 0.0, 0.0]],
  [0.05, [0.22733429434524402, 0.07348853056153598, -0.2923388810254674]],
  [0.1, [0.11349222765491904, -0.21788193974540712, -0.627808034613055]],
  [0.15000000000000002, [0.27078080990163017, -0.23825539648825717, -0.5660977086888748]],
  [0.2, [0.4065915042813583, -0.2723542505910013, -0.7962040863350046]],
  [0.25, [0.42475779655953627, 0.012399715594453579, -0.8568426833105478]],
];

const DOCUMENTED_FINAL = [
  2.329678505748301, 0.8172966942110715, 0.5119455946714326, -0.4231270777188495, -0.8009851689179699,
  -2.3310463365236678,
];

function run(body: string) {
  return dysonReference(parseStrictJson(body) as DysonRequest);
}

describe('dysonReference', () => {
  it('reproduces the upstream 3 x 5 sample path and its request digest', () => {
    const result = run('{"dimension":3,"steps":5,"seed":6116}');
    expect(result.request_sha256).toBe('72158c5170f6ecee53d0ff66f229f6692fa0a51ba9e7ae1977d91248b7c90170');
    expect(result.path).toHaveLength(6);
    result.path.forEach((entry, k) => {
      expect(entry.time).toBe(SAMPLE_PATH[k][0]);
      entry.eigenvalues.forEach((v, i) => expect(Math.abs(v - SAMPLE_PATH[k][1][i])).toBeLessThanOrEqual(1e-14));
    });
  });

  it('reproduces the documented 6 x 40 run at its final time', () => {
    const result = run('{"dimension":6,"steps":40,"dt":0.05,"seed":6116}');
    // The spec quotes this digest abbreviated as 3ba119ce…2d34aa.
    expect(result.request_sha256.startsWith('3ba119ce')).toBe(true);
    expect(result.request_sha256.endsWith('2d34aa')).toBe(true);
    const last = result.path[40];
    expect(last.time).toBe(2.0);
    last.eigenvalues.forEach((v, i) => expect(Math.abs(v - DOCUMENTED_FINAL[i])).toBeLessThanOrEqual(1e-12));
  });

  it('prints the body with Python number kinds and keys in the documented order', () => {
    const text = encodePythonBody(run('{"dimension":3,"steps":5,"seed":6116}'));
    expect(text.startsWith(
      '{"schema": "noisefloor.dyson-reference.v1", "status": "synthetic", "maturity": "research", ' +
        '"validity": "synthetic_reference", "guarantee": null, "parameters": {"dimension": 3, "steps": 5, "dt": 0.05, "seed": 6116}, ' +
        '"beta": 1, "path": [{"time": 0.0, "eigenvalues": [0.0, 0.0, 0.0]}, {"time": 0.05, ',
    )).toBe(true);
    expect(text).toContain('"time": 0.15000000000000002');
    const keys = Object.keys(run('{}'));
    expect(keys).toEqual([
      'schema', 'status', 'maturity', 'validity', 'guarantee', 'parameters', 'beta', 'path', 'initial_condition',
      'mean_reversion', 'normalization', 'market_calibrated', 'is_covariance_model', 'execution_authority',
      'request_sha256', 'limits',
    ]);
  });

  it('hashes the defaults-filled parameters, so {} equals the explicit defaults', () => {
    const a = run('{}');
    const b = run('{"dimension":6,"steps":40,"dt":0.05,"seed":0}');
    expect(a.request_sha256).toBe(b.request_sha256);
    expect(a).toEqual(b);
    expect(a.parameters).toEqual({ dimension: 6, steps: 40, dt: 0.05, seed: 0 });
  });

  it('keeps an integer dt token as integer times, and a float token as floats', () => {
    const intBody = encodePythonBody(run('{"dimension":2,"steps":2,"dt":1}'));
    expect(intBody).toContain('"time": 1, ');
    expect(intBody).toContain('"time": 2, ');
    expect(intBody).toContain('"time": 0.0, ');
    const floatBody = encodePythonBody(run('{"dimension":2,"steps":2,"dt":1.0}'));
    expect(floatBody).toContain('"time": 2.0, ');
    expect(run('{"dt":1}').request_sha256).not.toBe(run('{"dt":1.0}').request_sha256);
  });

  it('is deterministic per seed and differs across seeds', () => {
    expect(run('{"seed":7}')).toEqual(run('{"seed":7}'));
    expect(run('{"seed":7}').path[40].eigenvalues).not.toEqual(run('{"seed":8}').path[40].eigenvalues);
  });

  it('makes a shorter run an exact prefix of a longer one', () => {
    const short = run('{"steps":4,"seed":3}');
    const long = run('{"steps":8,"seed":3}');
    expect(long.path.slice(0, 5)).toEqual(short.path);
  });

  it('doubles the eigenvalues when dt is multiplied by four (Brownian scaling)', () => {
    const base = run('{"dt":0.05,"seed":11}').path[40].eigenvalues;
    const scaled = run('{"dt":0.2,"seed":11}').path[40].eigenvalues;
    scaled.forEach((v, i) => expect(Math.abs(v - 2 * base[i])).toBeLessThanOrEqual(1e-12 * Math.abs(2 * base[i])));
  });

  it('starts from zeros and keeps later eigenvalues strictly decreasing, some negative', () => {
    const result = run('{"dimension":8,"steps":30,"seed":6116}');
    expect(result.path[0].eigenvalues).toEqual(new Array(8).fill(0));
    for (const entry of result.path.slice(1)) {
      for (let i = 1; i < entry.eigenvalues.length; i++) expect(entry.eigenvalues[i]).toBeLessThan(entry.eigenvalues[i - 1]);
    }
    expect(result.path.slice(1).some((e) => e.eigenvalues.some((v) => v < 0))).toBe(true);
  });

  it('does not touch Math.random', () => {
    const original = Math.random;
    let calls = 0;
    Math.random = () => {
      calls++;
      return original();
    };
    try {
      run('{"seed":1}');
    } finally {
      Math.random = original;
    }
    expect(calls).toBe(0);
  });
});
