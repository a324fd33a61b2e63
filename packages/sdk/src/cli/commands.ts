import type { Command } from './command.ts';
import { evalCommand } from './eval.ts';
import { extractCommand } from './extract/index.ts';
import { extractionsCommand } from './extractions.ts';
import { modelsCommand } from './models.ts';
import { reviewsCommand } from './reviews.ts';
import { schemasCommand } from './schemas.ts';
import { splitCommand } from './split.ts';
import { webhooksCommand } from './webhooks.ts';

/** Every `xt` command by name; a new command is one entry here. */
export const commands: Record<string, Command> = {
  extract: extractCommand,
  schemas: schemasCommand,
  split: splitCommand,
  extractions: extractionsCommand,
  webhooks: webhooksCommand,
  models: modelsCommand,
  reviews: reviewsCommand,
  eval: evalCommand,
};
