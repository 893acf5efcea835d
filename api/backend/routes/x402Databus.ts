import { describeTool, TOOLS } from '../../../core/catalog/index.ts';
import { bodyReadByHandler, type VigilApp } from '../../plugins/service.ts';
import type { X402Gateway } from '../x402/gateway.ts';
import type { WalletProofs } from '../x402/walletProofs.ts';
import { PAID_ROUTE_PROBLEMS, sendAnswer, toCall } from './x402Tools.ts';

/** The chain-data tools of the catalog: the paid data bus answers them under its own prefix too. */
const DATA_TOOLS = TOOLS.filter((tool) => tool.run.kind === 'data');

/**
 * POST /api/v1/x402-databus/{tool}: the paid data bus. The same catalog tools, gateway, trials and
 * payments as /api/v1/x402-tools/{tool}; only the prefix differs.
 */
export function x402DatabusRoutes(app: VigilApp, gateway: X402Gateway, proofs: WalletProofs): void {
  for (const tool of DATA_TOOLS) {
    app.post(
      `/api/v1/x402-databus/${tool.name}`,
      {
        schema: {
          tags: ['x402 databus'],
          summary: `${tool.title} ($${tool.priceUsd} per call; free trials)`,
          description: `${describeTool(tool).description}\n\nSame as POST /api/v1/x402-tools/${tool.name}.`,
          body: tool.input,
          response: PAID_ROUTE_PROBLEMS,
        },
        // The gateway validates against the same schema, naming the field.
        validatorCompiler: bodyReadByHandler,
        // A tool that needs no input takes a call without a body (the gateway reads it as {}).
        config: { bodyOptional: tool.input.safeParse({}).success },
      },
      async (request, reply) => {
        sendAnswer(reply, await gateway.call(toCall(tool.name, request, proofs)));
        return reply;
      },
    );
  }
}
