// Response formats the extract tests generate for: the shapes agents ask for, and the keywords the generator
// claims to handle (../engines/schema-value.ts), each alone and combined.

export const RESPONSE_SCHEMAS: Record<string, Record<string, unknown>> = {
  article: {
    type: "object",
    properties: {
      title: { type: "string" },
      author: { type: ["string", "null"] },
      published: { type: "string", format: "date" },
    },
    required: ["title", "author", "published"],
    additionalProperties: false,
  },
  product: {
    type: "object",
    required: ["name", "price", "currency", "in_stock"],
    properties: {
      name: { type: "string", minLength: 3, maxLength: 40 },
      price: { type: "number", exclusiveMinimum: 0, maximum: 10000, multipleOf: 0.01 },
      currency: { enum: ["USD", "EUR", "GBP"] },
      in_stock: { type: "boolean" },
      sku: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
    },
  },
  links: { type: "array", items: { type: "string", format: "uri" }, minItems: 2, maxItems: 5, uniqueItems: true },
  scalarString: { type: "string", maxLength: 12 },
  scalarInteger: { type: "integer", minimum: 10, maximum: 12 },
  constAndEnum: {
    type: "object",
    properties: { kind: { const: "page" }, level: { enum: [1, 2, 3] } },
    required: ["kind", "level"],
  },
  formats: {
    type: "object",
    properties: Object.fromEntries(
      [
        "uri",
        "email",
        "date-time",
        "date",
        "time",
        "uuid",
        "hostname",
        "ipv4",
        "ipv6",
        "uri-reference",
        "duration",
      ].map((f) => [f, { type: "string", format: f }]),
    ),
    required: [
      "uri",
      "email",
      "date-time",
      "date",
      "time",
      "uuid",
      "hostname",
      "ipv4",
      "ipv6",
      "uri-reference",
      "duration",
    ],
  },
  tuple: {
    type: "array",
    prefixItems: [{ type: "string" }, { type: "integer" }, { type: "boolean" }],
    items: false,
    minItems: 3,
  },
  oneOfShapes: {
    oneOf: [
      {
        type: "object",
        properties: { type: { const: "circle" }, r: { type: "number", minimum: 0 } },
        required: ["type", "r"],
        additionalProperties: false,
      },
      {
        type: "object",
        properties: { type: { const: "square" }, side: { type: "integer", minimum: 1 } },
        required: ["type", "side"],
        additionalProperties: false,
      },
    ],
  },
  anyOfScalar: {
    anyOf: [
      { type: "string", minLength: 2 },
      { type: "integer", multipleOf: 7 },
    ],
  },
  allOfMerge: {
    allOf: [
      { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      { properties: { count: { type: "integer", minimum: 5 } }, required: ["count"] },
      { properties: { count: { maximum: 6 } } },
    ],
  },
  defsAndRefs: {
    $defs: {
      person: {
        type: "object",
        properties: { name: { type: "string" }, email: { type: "string", format: "email" } },
        required: ["name", "email"],
      },
    },
    type: "object",
    properties: {
      authors: { type: "array", items: { $ref: "#/$defs/person" }, minItems: 1 },
      editor: { $ref: "#/$defs/person" },
    },
    required: ["authors", "editor"],
  },
  recursiveTree: {
    $defs: {
      node: {
        type: "object",
        properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        required: ["label", "children"],
      },
    },
    $ref: "#/$defs/node",
  },
  draft7Definitions: {
    $schema: "http://json-schema.org/draft-07/schema#",
    definitions: { tag: { type: "string", pattern: "^#[a-z]+$" } },
    type: "object",
    properties: { tags: { type: "array", items: { $ref: "#/definitions/tag" }, minItems: 1 } },
    required: ["tags"],
  },
  nullableEverything: {
    type: "object",
    properties: {
      a: { type: ["string", "null"] },
      b: { type: ["integer", "null"] },
      c: { type: ["array", "null"], items: { type: "number" } },
    },
    required: ["a", "b", "c"],
  },
  dependentAndCounts: {
    type: "object",
    properties: { card: { type: "string" }, billing: { type: "string" }, note: { type: "string" } },
    dependentRequired: { card: ["billing"] },
    minProperties: 2,
    maxProperties: 3,
  },
  openExtras: {
    type: "object",
    properties: { x: { type: "integer" } },
    additionalProperties: { type: "integer", minimum: 0 },
    minProperties: 4,
  },
  exclusiveIntegers: { type: "integer", exclusiveMinimum: 3, exclusiveMaximum: 5 },
  containsArray: {
    type: "array",
    items: { type: "integer", minimum: 0, maximum: 100 },
    contains: { const: 42 },
    maxItems: 3,
  },
  ifThen: {
    type: "object",
    properties: { country: { enum: ["US", "CA"] }, postal: { type: "string" } },
    required: ["country", "postal"],
    if: { properties: { country: { const: "US" } } },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
    then: { properties: { postal: { pattern: "^[0-9]{5}$" } } },
    else: { properties: { postal: { pattern: "^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$" } } },
  },
  patterns: {
    type: "object",
    properties: {
      phone: { type: "string", pattern: "^\\+?[0-9]{1,3}[ -]?\\(?[0-9]{3}\\)?[ -]?[0-9]{3}-[0-9]{4}$" },
      slug: { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" },
      hex: { type: "string", pattern: "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$" },
      version: { type: "string", pattern: "^v\\d+\\.\\d+\\.\\d+(-(alpha|beta|rc)\\.\\d+)?$" },
    },
    required: ["phone", "slug", "hex", "version"],
  },
  emptySchema: {},
  deepNesting: {
    type: "object",
    properties: {
      a: {
        type: "object",
        properties: {
          b: {
            type: "object",
            properties: {
              c: {
                type: "object",
                properties: {
                  d: {
                    type: "array",
                    items: { type: "object", properties: { e: { type: "string" } }, required: ["e"] },
                  },
                },
                required: ["d"],
              },
            },
            required: ["c"],
          },
        },
        required: ["b"],
      },
    },
    required: ["a"],
  },
  numberRanges: {
    type: "object",
    properties: {
      rating: { type: "number", minimum: 0, maximum: 5 },
      year: { type: "integer" },
      big: { type: "integer", minimum: 1e9, multipleOf: 1000 },
      negative: { type: "number", maximum: -10 },
    },
    required: ["rating", "year", "big", "negative"],
  },
};
