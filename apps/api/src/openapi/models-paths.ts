import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ModelSchema } from '../models/response.ts';
import { errors, ok, resourceHeaders } from './common.ts';

export const modelPaths: ZodOpenApiPathsObject = {
  '/models': {
    get: {
      tags: ['Models'],
      operationId: 'listModels',
      summary: 'The models `model` may name, and what each can do',
      responses: {
        '200': ok('The models', z.array(ModelSchema), resourceHeaders),
        ...errors(),
      },
    },
  },
};
