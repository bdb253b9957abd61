/** What became of one attempt to send a message: sent, or why not and whether trying again can help. */
export type SendOutcome = { ok: true } | { ok: false; error: string; permanent: boolean };

export const MAX_ERROR_LENGTH = 300;
