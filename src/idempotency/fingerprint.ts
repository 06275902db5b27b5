import { createHash } from 'node:crypto';

/**
 * What a repeat must match: the method and its parameters, with object keys in a fixed order
 * (a client may serialise the same body with its keys in another order).
 */
export function requestFingerprint(method: string, params: Record<string, unknown>): string {
  return createHash('sha256')
    .update(method)
    .update('\0')
    .update(canonicalJson(params))
    .digest('hex');
}

type Step = { value: unknown } | { text: string };

/**
 * JSON with object keys sorted. Iterative, not recursive: a JSON body may nest as deep as
 * its size allows, and this runs before the parameters are validated.
 */
export function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const steps: Step[] = [{ value: root }];
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ('text' in step) {
      out.push(step.text);
      continue;
    }
    const v = step.value;
    if (Array.isArray(v)) {
      out.push('[');
      steps.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        steps.push({ value: v[i] });
        if (i > 0) steps.push({ text: ',' });
      }
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).sort();
      out.push('{');
      steps.push({ text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        steps.push({ value: (v as Record<string, unknown>)[keys[i]!] });
        steps.push({ text: `${JSON.stringify(keys[i])}:` });
        if (i > 0) steps.push({ text: ',' });
      }
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}
