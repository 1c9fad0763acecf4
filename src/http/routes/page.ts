// Contract of the service's front door: GET / is the web page for people, or a JSON index
// of the service for clients that ask for JSON.
import { Type, type Static } from 'typebox';
import { defineRoute } from '../contract.js';

export const ServiceIndexResponse = Type.Object(
  {
    service: Type.Literal('evidence-desk'),
    service_version: Type.String(),
    mode: Type.Union([Type.Literal('live'), Type.Literal('sample')]),
    sample: Type.Boolean(),
    links: Type.Object(
      {
        page: Type.String(),
        openapi: Type.String(),
        docs: Type.String(),
        health: Type.String(),
        readiness: Type.String(),
        funding_latest: Type.String(),
        funding_history: Type.String(),
        analysis_capabilities: Type.String(),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ServiceIndex = Static<typeof ServiceIndexResponse>;

export const ServicePage = defineRoute({
  method: 'GET',
  url: '/',
  operationId: 'servicePage',
  summary: 'The web page (HTML), or an index of the service (JSON)',
  description:
    'Browsers get the page: funding evidence re-verified in the browser, the data tables and the analysis tools. ' +
    'A client whose Accept header prefers application/json over text/html gets a JSON index of the service instead.',
  tags: ['page'],
  success: {
    200: {
      description: 'The page, or the JSON index.',
      content: { 'text/html': Type.String(), 'application/json': ServiceIndexResponse },
    },
  },
  errors: [],
});

export const PAGE_ROUTES = [ServicePage] as const;
