/**
 * Pages of the worker's test site (`@xt/testkit/fixtures`, test-site.ts) as `.url`
 * cases holding paths, resolved against the running site with `xt eval --site <origin>`.
 */
export const WEBPAGE_SCHEMA = {
  name: 'Web page facts',
  structure: {
    type: 'object',
    properties: {
      title: { type: 'string', describe: "the page's main heading" },
      new_customers: { type: 'integer' },
      enterprise_churn: { type: 'string' },
      fiscal_year: { type: 'string' },
      products: {
        type: 'array',
        items: {
          type: 'object',
          properties: { product: { type: 'string' }, price: { type: 'number' } },
        },
      },
      line_items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            item: { type: 'string' },
            qty: { type: 'integer' },
            unit_price: { type: 'number' },
          },
        },
      },
    },
  },
};

export const WEBPAGE_CASES: Array<{ name: string; path: string; expected: unknown }> = [
  {
    name: 'article',
    path: '/article',
    expected: {
      title: 'Quarterly Report Q3',
      new_customers: 312,
      enterprise_churn: '0.4%',
      fiscal_year: 'Ends on 31 March',
      products: [],
      line_items: [],
    },
  },
  {
    name: 'product',
    path: '/spa',
    expected: {
      title: 'Product catalogue',
      new_customers: null,
      enterprise_churn: null,
      fiscal_year: null,
      products: [
        { product: 'Widget Alpha', price: 19.99 },
        { product: 'Gizmo Beta', price: 42 },
      ],
      line_items: [],
    },
  },
  {
    name: 'table',
    path: '/tables',
    expected: {
      title: 'Invoice 2026-114',
      new_customers: null,
      enterprise_churn: null,
      fiscal_year: null,
      products: [],
      // The caption says these are the line items; the footer's total is not one.
      line_items: [
        { item: 'Blue widget', qty: 4, unit_price: 12.5 },
        { item: 'Red gadget | large', qty: 1, unit_price: 99 },
        { item: 'Shipping', qty: null, unit_price: 7.25 },
        { item: 'Service', qty: 2, unit_price: 40 },
        { item: 'Service', qty: 3, unit_price: 45 },
      ],
    },
  },
];
