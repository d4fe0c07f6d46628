import type { z } from 'zod';
import { fieldMessage, issueInWords } from '../model/messages.ts';
import { ServiceError } from './errors.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Keys that would reach an object's prototype if anything merged the body naively. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What no request may carry, whatever its schema: text with NUL or other control characters
 * (PostgreSQL refuses NUL, and none belongs in a name, URL or note; tab and line breaks are
 * fine) and prototype keys. Returns the path and the reason of the first one found.
 */
export function hostileInput(
  value: unknown,
  path: (string | number)[] = [],
): { path: string; message: string } | undefined {
  if (typeof value === 'string') {
    return CONTROL_CHARACTERS.test(value)
      ? { path: path.join('.'), message: 'must not hold control characters' }
      : undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = hostileInput(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (PROTOTYPE_KEYS.has(key))
        return { path: [...path, key].join('.'), message: 'is not an allowed key' };
      const found = hostileInput(key, [...path, key]) ?? hostileInput(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  // Before the schema, so no route can forget it.
  const hostile = hostileInput(input);
  if (hostile) {
    throw new ServiceError(
      'invalid',
      'VALIDATION_ERROR',
      fieldMessage(hostile.path ? hostile.path.split('.') : [], hostile.message),
      [hostile],
    );
  }
  const result = schema.safeParse(input, { error: issueInWords });
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }));
  const first = result.error.issues[0];
  const message = first ? fieldMessage(first.path, first.message) : 'Invalid input';
  throw new ServiceError('invalid', 'VALIDATION_ERROR', message, details);
}

/** A uuid PostgreSQL will take: anything else in an id column is refused by the database itself. */
export function isUuid(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}
