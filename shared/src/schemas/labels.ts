import { z } from 'zod';
import { Id, Text, Timestamp } from './common';

export const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a hex color like #1a2b3c');

export const PersonLabel = z.object({
  labelId: Id,
  name: z.string(),
  color: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PersonLabel = z.infer<typeof PersonLabel>;

export const CreatePersonLabelRequest = z.strictObject({ name: Text(64), color: Color.optional() });
export const UpdatePersonLabelRequest = z.strictObject({
  name: Text(64).optional(),
  color: Color.nullable().optional(),
});
export type CreatePersonLabelRequest = z.infer<typeof CreatePersonLabelRequest>;
export type UpdatePersonLabelRequest = z.infer<typeof UpdatePersonLabelRequest>;
