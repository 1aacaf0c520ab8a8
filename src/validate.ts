// Checks a body against the field rules the generator read from the documents, before anything
// is signed or sent, so bad input fails here with the field's name instead of at the server.
import type { BodyRules, FieldRule } from '../generated/operations.ts';

export type { BodyRules, FieldRule };

export interface Violation {
  field: string;
  message: string;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const patterns = new Map<string, RegExp>();
const compiled = (pattern: string) => {
  let regex = patterns.get(pattern);
  if (!regex) {
    regex = new RegExp(pattern, 'u');
    patterns.set(pattern, regex);
  }
  return regex;
};

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

function checkField(field: string, rule: FieldRule, value: unknown): Violation | undefined {
  if (rule.anyOf) {
    const violations = rule.anyOf.map((form) => checkField(field, form, value));
    if (violations.some((violation) => violation === undefined)) return undefined;
    return { field, message: violations.map((violation) => violation?.message).join('; or ') };
  }
  if (rule.type !== undefined && !typeMatches(rule.type, value)) {
    const article = /^[aeiou]/.test(rule.type) ? 'an' : 'a';
    return {
      field,
      message: `${field} must be ${article} ${rule.type}, got ${JSON.stringify(value) ?? String(value)}`,
    };
  }
  if (typeof value === 'number' && rule.minimum !== undefined && value < rule.minimum) {
    return { field, message: `${field} must be at least ${rule.minimum}, got ${value}` };
  }
  if (rule.enum && !rule.enum.includes(value)) {
    return {
      field,
      message: `${field} must be one of ${rule.enum.map((item) => JSON.stringify(item)).join(', ')}`,
    };
  }
  if (typeof value === 'string' && rule.minLength !== undefined && [...value].length < rule.minLength) {
    return { field, message: `${field} must be at least ${rule.minLength} characters long` };
  }
  if (typeof value === 'string' && rule.maxLength !== undefined && [...value].length > rule.maxLength) {
    return { field, message: `${field} must be at most ${rule.maxLength} characters long` };
  }
  if (rule.pattern && typeof value === 'string' && !compiled(rule.pattern).test(value)) {
    return { field, message: `${field} must match ${rule.pattern}, got ${JSON.stringify(value)}` };
  }
  if (rule.format === 'uuid' && typeof value === 'string' && !uuid.test(value)) {
    return { field, message: `${field} must be a UUID, got ${JSON.stringify(value)}` };
  }
  if (rule.items && Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const violation = checkField(`${field}.${index}`, rule.items, item);
      if (violation) return violation;
    }
  }
  return undefined;
}

/** The first violation of the rules by `body`, or undefined. Fields the rules do not name pass. */
export function checkBody(rules: BodyRules, body: Record<string, unknown>): Violation | undefined {
  for (const field of rules.required) {
    if (body[field] === undefined) return { field, message: `${field} is required` };
  }
  for (const [field, value] of Object.entries(body)) {
    const rule = Object.hasOwn(rules.properties, field) ? rules.properties[field] : undefined;
    if (rule && value !== undefined) {
      const violation = checkField(field, rule, value);
      if (violation) return violation;
    }
  }
  return undefined;
}
