import { z } from 'zod';
import { ErrorCodes, isErrorCode } from '../../core/errors/codes.ts';
import { VigilError } from '../../core/errors/vigilError.ts';
import { Problem } from './problem.ts';
import type { VigilApp } from './service.ts';
import { Reason } from '../../core/errors/reasons.ts';

const ErrorDoc = z.object({
  code: z.string(),
  status: z.number().int(),
  title: z.string(),
  description: z.string(),
});

/** GET /errors/{code}: every service serves its problem type URLs, so each one resolves. */
export function errorDocRoutes(app: VigilApp): void {
  app.get(
    '/errors/:code',
    {
      schema: {
        tags: ['meta'],
        summary: 'Documentation of one problem type',
        params: z.object({ code: z.string().max(64) }),
        response: { 200: ErrorDoc, 404: Problem },
      },
    },
    (request) => {
      const { code } = request.params;
      if (!isErrorCode(code)) throw new VigilError(Reason.notFound, `No error type "${code.slice(0, 64)}".`);
      return { code, ...ErrorCodes[code] };
    },
  );
}
