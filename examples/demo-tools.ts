// The demo upstream's tools: ordinary ones, and deliberately broken or hostile schemas so the page shows exclusion.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

const bomb: Record<string, unknown> = { d0: { type: 'string' } };
for (let i = 1; i <= 24; i++) bomb[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };

export const demoTools: Tool[] = [
  {
    name: 'get_weather',
    title: 'Weather',
    description: 'Current weather for a city.',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, title: 'City' },
        units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric', title: 'Units' },
        days: { type: 'integer', minimum: 1, maximum: 10, title: 'Days' },
      },
      required: ['city'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, temperature: { type: 'number' }, conditions: { type: 'string' } },
      required: ['city', 'temperature', 'conditions'],
    },
  },
  {
    name: 'sign_up',
    title: 'Sign up',
    description: 'Asks you for your details through an elicitation form.',
    inputSchema: { type: 'object', properties: { plan: { type: 'string', enum: ['free', 'pro'], default: 'free', title: 'Plan' } } },
  },
  {
    name: 'match_pattern',
    title: 'Match a pattern',
    description:
      'A hostile schema: its pattern backtracks catastrophically on "aaaa…!" in a backtracking engine; schemaval matches it in linear time.',
    inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$', title: 'Text' } }, required: ['text'] },
  },
  {
    name: 'legacy_lookup',
    title: 'Legacy lookup',
    description: 'Published with draft-03 syntax inside a property: admitted with a warning. Its results break its outputSchema.',
    inputSchema: { type: 'object', properties: { id: { type: 'string', required: true, title: 'Id' } } },
    outputSchema: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] },
  },
  {
    name: 'fetch_profile',
    title: 'Fetch profile',
    description: 'Refers to a schema on the network: never fetched, refused.',
    inputSchema: { type: 'object', properties: { profile: { $ref: 'https://schemas.example.com/profile.json' } } },
  },
  {
    name: 'expand_everything',
    title: 'Expand everything',
    description: 'A 1 KB schema whose references double at each level: refused before it can hang anything.',
    inputSchema: { type: 'object', properties: { x: { $ref: '#/$defs/d24' } }, $defs: bomb },
  },
];

/** The form `sign_up` sends as an elicitation: every form the spec allows. */
export const signUpForm = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1 },
    email: { type: 'string', title: 'Email', format: 'email' },
    age: { type: 'integer', title: 'Age', minimum: 13, maximum: 120 },
    newsletter: { type: 'boolean', title: 'Newsletter', default: true },
    color: { type: 'string', title: 'Favourite colour', enum: ['red', 'green', 'blue'], default: 'green' },
    interests: {
      type: 'array',
      title: 'Interests',
      items: {
        anyOf: [
          { const: 'mcp', title: 'MCP' },
          { const: 'schemas', title: 'JSON Schema' },
          { const: 'edge', title: 'Edge computing' },
        ],
      },
    },
  },
  required: ['name', 'email'],
} as const;
