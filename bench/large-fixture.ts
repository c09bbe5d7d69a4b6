// A CRM query tool shaped like zod-to-json-schema output: a discriminated union per entity, recursive filter
// expressions through `#/definitions/<entity>Filter`, every field condition inlined with its description.
import type { Fixture } from './fixtures.ts';

type FieldKind = 'id' | 'string' | 'email' | 'number' | 'integer' | 'boolean' | 'date' | 'tags' | readonly string[];

const stages = ['lead', 'mql', 'sql', 'opportunity', 'customer', 'evangelist', 'churned'] as const;

/** The entities a query can target and their filterable fields. */
const entities: Record<string, Record<string, FieldKind>> = {
  contact: {
    id: 'id',
    firstName: 'string',
    lastName: 'string',
    email: 'email',
    phone: 'string',
    companyId: 'id',
    jobTitle: 'string',
    lifecycleStage: stages,
    leadScore: 'integer',
    country: 'string',
    city: 'string',
    createdAt: 'date',
    lastContactedAt: 'date',
    doNotEmail: 'boolean',
    tags: 'tags',
  },
  company: {
    id: 'id',
    name: 'string',
    domain: 'string',
    industry: ['software', 'finance', 'health', 'retail', 'manufacturing', 'education', 'government', 'other'],
    employees: 'integer',
    annualRevenue: 'number',
    country: 'string',
    ownerId: 'id',
    createdAt: 'date',
    isCustomer: 'boolean',
    tags: 'tags',
  },
  deal: {
    id: 'id',
    title: 'string',
    companyId: 'id',
    ownerId: 'id',
    stage: ['qualification', 'discovery', 'proposal', 'negotiation', 'closed_won', 'closed_lost'],
    amount: 'number',
    currency: ['USD', 'EUR', 'GBP', 'JPY', 'BRL'],
    probability: 'integer',
    expectedCloseDate: 'date',
    createdAt: 'date',
    isRenewal: 'boolean',
    tags: 'tags',
  },
  ticket: {
    id: 'id',
    subject: 'string',
    contactId: 'id',
    assigneeId: 'id',
    status: ['new', 'open', 'pending', 'on_hold', 'solved', 'closed'],
    priority: ['low', 'normal', 'high', 'urgent'],
    channel: ['email', 'chat', 'phone', 'web', 'api'],
    satisfaction: 'integer',
    createdAt: 'date',
    resolvedAt: 'date',
    isEscalated: 'boolean',
    tags: 'tags',
  },
  activity: {
    id: 'id',
    type: ['call', 'email', 'meeting', 'note', 'task'],
    subject: 'string',
    contactId: 'id',
    dealId: 'id',
    ownerId: 'id',
    durationMinutes: 'integer',
    occurredAt: 'date',
    completed: 'boolean',
  },
};

const nullable = { type: 'null' };
const stringValue = { type: 'string', maxLength: 1000 };

const operators = (kind: FieldKind): string[] => {
  if (Array.isArray(kind)) return ['eq', 'neq', 'in', 'not_in', 'is_empty', 'is_not_empty'];
  switch (kind) {
    case 'id':
      return ['eq', 'neq', 'in', 'not_in', 'is_empty', 'is_not_empty'];
    case 'string':
    case 'email':
      return ['eq', 'neq', 'contains', 'not_contains', 'starts_with', 'ends_with', 'in', 'not_in', 'is_empty', 'is_not_empty'];
    case 'number':
    case 'integer':
      return ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'is_empty', 'is_not_empty'];
    case 'boolean':
      return ['is', 'is_not', 'is_empty'];
    case 'date':
      return ['on', 'before', 'after', 'between', 'within_last', 'within_next', 'is_empty', 'is_not_empty'];
    default:
      return ['contains_any', 'contains_all', 'contains_none', 'is_empty'];
  }
};

const valueSchema = (kind: FieldKind): Record<string, unknown> => {
  if (Array.isArray(kind)) {
    const one = { type: 'string', enum: kind };
    return { anyOf: [one, { type: 'array', items: { type: 'string', enum: kind }, minItems: 1, maxItems: kind.length }, nullable] };
  }
  switch (kind) {
    case 'id':
      return {
        anyOf: [
          { type: 'string', pattern: '^[a-z]{2,4}_[0-9A-Za-z]{8,32}$' },
          { type: 'array', items: { type: 'string', pattern: '^[a-z]{2,4}_[0-9A-Za-z]{8,32}$' }, maxItems: 100 },
          nullable,
        ],
      };
    case 'string':
    case 'email':
      return { anyOf: [stringValue, { type: 'array', items: stringValue, maxItems: 100 }, nullable] };
    case 'number':
    case 'integer':
      return {
        anyOf: [
          { type: kind },
          { type: 'array', items: { type: kind }, maxItems: 100 },
          {
            type: 'object',
            properties: { min: { type: kind }, max: { type: kind } },
            required: ['min', 'max'],
            additionalProperties: false,
          },
          nullable,
        ],
      };
    case 'boolean':
      return { type: ['boolean', 'null'] };
    case 'date':
      return {
        anyOf: [
          { type: 'string', format: 'date-time' },
          {
            type: 'object',
            properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
            required: ['from', 'to'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: {
              amount: { type: 'integer', exclusiveMinimum: 0, maximum: 3650 },
              unit: { type: 'string', enum: ['hours', 'days', 'weeks', 'months', 'years'] },
            },
            required: ['amount', 'unit'],
            additionalProperties: false,
          },
          nullable,
        ],
      };
    default:
      return { type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, maxItems: 50 };
  }
};

const condition = (entity: string, field: string, kind: FieldKind): Record<string, unknown> => ({
  type: 'object',
  properties: {
    field: { type: 'string', const: field, description: `The ${entity}'s ${field}` },
    op: { type: 'string', enum: operators(kind), description: `How to compare ${field}` },
    value: { ...valueSchema(kind), description: `Value to compare ${field} with; omit for is_empty / is_not_empty` },
  },
  required: ['field', 'op'],
  additionalProperties: false,
  description: `A condition on ${entity}.${field}`,
});

const group = (entity: string, keyword: 'and' | 'or'): Record<string, unknown> => ({
  type: 'object',
  properties: {
    [keyword]: {
      type: 'array',
      items: { $ref: `#/definitions/${entity}Filter` },
      minItems: 1,
      maxItems: 50,
      description: keyword === 'and' ? 'Every filter must match' : 'At least one filter must match',
    },
  },
  required: [keyword],
  additionalProperties: false,
});

const filterOf = (entity: string, fields: Record<string, FieldKind>): Record<string, unknown> => ({
  anyOf: [
    group(entity, 'and'),
    group(entity, 'or'),
    {
      type: 'object',
      properties: { not: { $ref: `#/definitions/${entity}Filter` } },
      required: ['not'],
      additionalProperties: false,
    },
    ...Object.entries(fields).map(([field, kind]) => condition(entity, field, kind)),
  ],
  description: `A filter expression over ${entity} records`,
});

const queryOf = (entity: string, fields: Record<string, FieldKind>): Record<string, unknown> => {
  const names = Object.keys(fields);
  return {
    type: 'object',
    properties: {
      entity: { type: 'string', const: entity },
      filter: { $ref: `#/definitions/${entity}Filter` },
      sort: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            field: { type: 'string', enum: names },
            direction: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
            nulls: { type: 'string', enum: ['first', 'last'] },
          },
          required: ['field'],
          additionalProperties: false,
        },
        maxItems: 5,
      },
      select: { type: 'array', items: { type: 'string', enum: names }, uniqueItems: true, description: 'Fields to return' },
      groupBy: { type: 'array', items: { type: 'string', enum: names }, maxItems: 3 },
    },
    required: ['entity'],
    additionalProperties: false,
  };
};

const schema: Record<string, unknown> = {
  type: 'object',
  properties: {
    query: { anyOf: Object.entries(entities).map(([entity, fields]) => queryOf(entity, fields)), description: 'What to fetch' },
    pagination: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
        cursor: { type: ['string', 'null'], maxLength: 512 },
      },
      additionalProperties: false,
    },
    aggregate: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          fn: { type: 'string', enum: ['count', 'sum', 'avg', 'min', 'max', 'count_distinct'] },
          field: { type: 'string' },
          alias: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]{0,62}$' },
        },
        required: ['fn'],
        additionalProperties: false,
      },
      maxItems: 10,
    },
    output: {
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['json', 'csv', 'markdown'], default: 'json' },
        timeZone: { type: 'string' },
        includeTotals: { type: 'boolean', default: false },
      },
      additionalProperties: false,
    },
  },
  required: ['query'],
  additionalProperties: false,
  definitions: Object.fromEntries(Object.entries(entities).map(([entity, fields]) => [`${entity}Filter`, filterOf(entity, fields)])),
  $schema: 'http://json-schema.org/draft-07/schema#',
};

const where = (field: string, op: string, value?: unknown): Record<string, unknown> =>
  value === undefined ? { field, op } : { field, op, value };

const valid = {
  query: {
    entity: 'contact',
    filter: {
      and: [
        {
          or: [
            where('lifecycleStage', 'in', ['sql', 'opportunity']),
            where('leadScore', 'gte', 80),
            where('tags', 'contains_any', ['vip']),
          ],
        },
        where('lastContactedAt', 'within_last', { amount: 30, unit: 'days' }),
        { not: where('doNotEmail', 'is', true) },
        {
          and: [
            where('country', 'in', ['PT', 'ES', 'FR']),
            where('email', 'ends_with', '.com'),
            { or: [where('jobTitle', 'contains', 'Director'), where('jobTitle', 'contains', 'VP'), where('jobTitle', 'contains', 'Head')] },
          ],
        },
        where('createdAt', 'between', { from: '2025-01-01T00:00:00Z', to: '2026-06-30T23:59:59Z' }),
        where('companyId', 'is_not_empty'),
        { not: { or: [where('city', 'eq', 'Porto'), where('phone', 'is_empty')] } },
      ],
    },
    sort: [{ field: 'leadScore', direction: 'desc' }, { field: 'lastName' }],
    select: ['id', 'firstName', 'lastName', 'email', 'jobTitle', 'leadScore', 'lastContactedAt'],
  },
  pagination: { limit: 100, cursor: null },
  aggregate: [
    { fn: 'count', alias: 'total' },
    { fn: 'avg', field: 'leadScore', alias: 'avg_score' },
  ],
  output: { format: 'json', timeZone: 'Europe/Lisbon', includeTotals: true },
};

const invalid = {
  query: {
    entity: 'contact',
    filter: {
      and: [
        { or: [where('lifecycleStage', 'in', ['sql', 'prospect']), where('leadScore', 'approximately', 80)] },
        where('lastContactedAt', 'within_last', { amount: 30, unit: 'fortnights' }),
        { not: where('nickname', 'eq', 'Bo') },
        where('country', 'in', 'PT'),
      ],
    },
    sort: [{ field: 'leadScore', direction: 'down' }],
    select: ['id', 'email', 'email'],
  },
  pagination: { limit: 1000 },
  output: { format: 'yaml' },
};

/** ~50 KB, several hundred subschemas, recursive `$ref`s: the upper end of what real MCP servers publish. */
export const largeFixture: Fixture = {
  name: 'large',
  description: 'query_records: zod-to-json-schema style, draft-07, recursive filter $refs, 5 entity variants',
  draft: '7',
  schema,
  valid,
  invalid,
};
