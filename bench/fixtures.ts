// Realistic MCP tool input schemas for the benchmark, each with one valid and one invalid argument object.
import { largeFixture } from './large-fixture.ts';

/** The dialect a fixture declares, as @cfworker/json-schema names it. */
export type CfworkerDraft = '7' | '2020-12';

/** A tool input schema and two argument objects: one valid, one with a few typical mistakes. */
export interface BenchSchema {
  readonly name: string;
  readonly description: string;
  readonly schema: Record<string, unknown>;
  readonly draft: CfworkerDraft;
  readonly valid: unknown;
  readonly invalid: unknown;
}

/** The three sized fixtures every section runs on. */
export interface Fixture extends BenchSchema {
  readonly name: 'small' | 'medium' | 'large';
  readonly description: string;
  readonly schema: Record<string, unknown>;
  readonly draft: CfworkerDraft;
  readonly valid: unknown;
  readonly invalid: unknown;
}

/** A weather tool: a few flat properties and no `$schema` (28% of real input schemas), so 2020-12. */
export const smallFixture: Fixture = {
  name: 'small',
  description: 'get_weather: 4 flat properties, no $schema (2020-12)',
  draft: '2020-12',
  schema: {
    type: 'object',
    properties: {
      location: { type: 'string', minLength: 1, maxLength: 200, description: 'City name, or "lat,lon"' },
      units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric', description: 'Unit system for temperatures' },
      days: { type: 'integer', minimum: 1, maximum: 14, default: 3, description: 'Forecast length in days' },
      include_hourly: { type: 'boolean', default: false, description: 'Add an hourly breakdown' },
    },
    required: ['location'],
    additionalProperties: false,
  },
  valid: { location: 'Lisbon, PT', units: 'metric', days: 5, include_hourly: false },
  invalid: { units: 'kelvin', days: '5', include_hourly: false },
};

/** A calendar tool in draft-07 style: nested objects, arrays, enums, nullable type arrays, a tuple, `definitions`. */
export const mediumFixture: Fixture = {
  name: 'medium',
  description: 'create_event: draft-07, nested objects, nullable types, tuple items, $ref into definitions',
  draft: '7',
  schema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      calendarId: { type: 'string', minLength: 1, description: 'Calendar to add the event to; "primary" for the default' },
      summary: { type: 'string', minLength: 1, maxLength: 1024, description: 'Event title' },
      description: { type: ['string', 'null'], maxLength: 8192, description: 'Free-text notes (Markdown)' },
      location: { type: ['string', 'null'], maxLength: 1024 },
      start: { $ref: '#/definitions/eventTime' },
      end: { $ref: '#/definitions/eventTime' },
      organizer: { $ref: '#/definitions/person' },
      attendees: { type: 'array', items: { $ref: '#/definitions/attendee' }, maxItems: 100 },
      recurrence: {
        type: ['object', 'null'],
        properties: {
          frequency: { type: 'string', enum: ['daily', 'weekly', 'monthly', 'yearly'] },
          interval: { type: 'integer', minimum: 1, maximum: 99, default: 1 },
          count: { type: 'integer', minimum: 1, maximum: 730 },
          until: { type: 'string', format: 'date-time' },
          byWeekday: { type: 'array', items: { type: 'string', enum: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] }, uniqueItems: true },
        },
        required: ['frequency'],
        additionalProperties: false,
      },
      reminders: {
        type: 'object',
        properties: {
          useDefault: { type: 'boolean' },
          overrides: {
            type: 'array',
            maxItems: 5,
            items: {
              type: 'object',
              properties: {
                method: { type: 'string', enum: ['email', 'popup', 'sms'] },
                minutes: { type: 'integer', minimum: 0, maximum: 40320 },
              },
              required: ['method', 'minutes'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
      conference: {
        type: ['object', 'null'],
        properties: {
          provider: { type: 'string', enum: ['meet', 'zoom', 'teams', 'other'] },
          joinUrl: { type: 'string', format: 'uri' },
          dialIn: { type: 'array', items: { type: 'string', pattern: '^\\+?[0-9 ()-]{6,32}$' }, maxItems: 10 },
        },
        required: ['provider'],
        additionalProperties: false,
      },
      geo: {
        type: 'array',
        description: '[latitude, longitude]',
        items: [
          { type: 'number', minimum: -90, maximum: 90 },
          { type: 'number', minimum: -180, maximum: 180 },
        ],
        minItems: 2,
        additionalItems: false,
      },
      attachments: { type: 'array', items: { $ref: '#/definitions/attachment' }, maxItems: 25 },
      tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, uniqueItems: true },
      visibility: { type: 'string', enum: ['default', 'public', 'private', 'confidential'], default: 'default' },
      transparency: { enum: ['opaque', 'transparent'] },
      colorId: { type: ['string', 'null'], pattern: '^[0-9]{1,2}$' },
      priority: { type: ['integer', 'null'], minimum: 0, maximum: 9 },
      metadata: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] }, maxProperties: 50 },
      sendUpdates: { type: 'string', enum: ['all', 'externalOnly', 'none'] },
      guestsCanModify: { type: 'boolean' },
      guestsCanInviteOthers: { type: 'boolean' },
    },
    required: ['calendarId', 'summary', 'start', 'end'],
    additionalProperties: false,
    definitions: {
      eventTime: {
        type: 'object',
        properties: {
          dateTime: { type: 'string', format: 'date-time' },
          date: { type: 'string', format: 'date' },
          timeZone: { type: ['string', 'null'], pattern: '^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$' },
        },
        anyOf: [{ required: ['dateTime'] }, { required: ['date'] }],
        additionalProperties: false,
      },
      person: {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email' },
          displayName: { type: ['string', 'null'], maxLength: 256 },
        },
        required: ['email'],
        additionalProperties: false,
      },
      attendee: {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email' },
          displayName: { type: ['string', 'null'], maxLength: 256 },
          optional: { type: 'boolean', default: false },
          responseStatus: { type: 'string', enum: ['needsAction', 'declined', 'tentative', 'accepted'] },
          comment: { type: ['string', 'null'] },
        },
        required: ['email'],
        additionalProperties: false,
      },
      attachment: {
        type: 'object',
        properties: {
          fileUrl: { type: 'string', format: 'uri' },
          title: { type: 'string' },
          mimeType: { type: 'string', pattern: '^[a-z]+/[a-z0-9.+-]+$' },
          sizeBytes: { type: 'integer', minimum: 0 },
        },
        required: ['fileUrl'],
        additionalProperties: false,
      },
    },
  },
  valid: {
    calendarId: 'primary',
    summary: 'Quarterly planning',
    description: 'Agenda:\n1. Review Q3\n2. Plan Q4',
    location: null,
    start: { dateTime: '2026-10-05T09:00:00+01:00', timeZone: 'Europe/Lisbon' },
    end: { dateTime: '2026-10-05T11:00:00+01:00', timeZone: 'Europe/Lisbon' },
    organizer: { email: 'ana@example.com', displayName: 'Ana' },
    attendees: [
      { email: 'bo@example.com', displayName: 'Bo', responseStatus: 'accepted' },
      { email: 'cy@example.com', displayName: null, optional: true, responseStatus: 'needsAction' },
      { email: 'di@example.com', responseStatus: 'tentative', comment: 'may be late' },
    ],
    recurrence: { frequency: 'weekly', interval: 2, count: 6, byWeekday: ['MO', 'TH'] },
    reminders: {
      useDefault: false,
      overrides: [
        { method: 'email', minutes: 1440 },
        { method: 'popup', minutes: 10 },
      ],
    },
    conference: { provider: 'meet', joinUrl: 'https://meet.example.com/abc-defg-hij', dialIn: ['+1 555-0100'] },
    geo: [38.7223, -9.1393],
    attachments: [{ fileUrl: 'https://files.example.com/q3.pdf', title: 'Q3 review', mimeType: 'application/pdf', sizeBytes: 482133 }],
    tags: ['planning', 'q4'],
    visibility: 'private',
    transparency: 'opaque',
    colorId: '7',
    priority: 2,
    metadata: { source: 'assistant', version: 3, confirmed: true },
    sendUpdates: 'all',
    guestsCanModify: false,
    guestsCanInviteOthers: true,
  },
  invalid: {
    calendarId: 'primary',
    summary: 'Quarterly planning',
    start: { dateTime: '2026-10-05T09:00:00+01:00' },
    end: { timeZone: 'Europe/Lisbon' },
    attendees: [
      { email: 'bo@example.com', responseStatus: 'maybe' },
      { displayName: 'Cy', optional: 'yes' },
    ],
    reminders: { overrides: [{ method: 'popup', minutes: -5 }] },
    geo: [91, -9.1393],
    priority: '3',
    color: 'blue',
  },
};

/** The three sizes, smallest first. */
export const fixtures: readonly Fixture[] = [smallFixture, mediumFixture, largeFixture];
