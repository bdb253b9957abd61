import type { MigrationFn } from './types';

/**
 * Why a vehicle's STOP stops, in words the gate shows (docs/api.md, vehicle check-ins): the blocking labels'
 * names, or the deny's reason. STOPs from before keep null: the reason they had was not recorded.
 */
export const up: MigrationFn = async ({ context: sql }) => {
  await sql('ALTER TABLE vehicle_checkins ADD COLUMN stop_reason text');
};
